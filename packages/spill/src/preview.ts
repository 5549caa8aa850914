import { cutPoint } from "@harnessx/core";
import type { JsonValue } from "@harnessx/core/extension";
import { firstArrayElements } from "./json-text.js";

/** How much of a value a preview keeps at one level of detail. */
interface Detail {
  depth: number;
  items: number;
  keys: number;
  chars: number;
}

const DETAILS: readonly Detail[] = [
  { depth: 4, items: 5, keys: 24, chars: 160 },
  { depth: 3, items: 3, keys: 12, chars: 80 },
  { depth: 2, items: 2, keys: 8, chars: 40 },
  { depth: 1, items: 1, keys: 4, chars: 20 },
];

/** A long string cut for a preview: off any token, so no half of a key or token is shown (see `cutPoint`). */
function cutString(s: string, max: number): string {
  if (s.length <= max) return s;
  const end = cutPoint(s, max);
  return `${s.slice(0, end)}…(+${s.length - end} chars)`;
}

/** A smaller copy of `value`: long strings cut, long arrays and objects shortened with a marker; always valid JSON. */
export function shrink(value: unknown, detail: Detail, depth = 0): JsonValue {
  if (typeof value === "string") return cutString(value, detail.chars);
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) {
    if (depth >= detail.depth) return `[array of ${value.length} items]`;
    const kept: JsonValue[] = value.slice(0, detail.items).map((v) => shrink(v, detail, depth + 1));
    if (value.length > detail.items) kept.push(`… ${value.length - detail.items} more items`);
    return kept;
  }
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (depth >= detail.depth) return `{object with ${keys.length} keys}`;
    const out: { [key: string]: JsonValue } = {};
    for (const key of keys.slice(0, detail.keys))
      out[key] = shrink((value as Record<string, unknown>)[key], detail, depth + 1);
    if (keys.length > detail.keys) out["…"] = `${keys.length - detail.keys} more keys`;
    return out;
  }
  return String(value);
}

/** The most detailed shrunken form of `value` whose JSON fits `budget` characters. */
export function summarizeJson(value: unknown, budget: number): JsonValue {
  for (const detail of DETAILS) {
    const candidate = shrink(value, detail);
    if (JSON.stringify(candidate).length <= budget) return candidate;
  }
  if (Array.isArray(value)) return `[array of ${value.length} items]`;
  if (value && typeof value === "object") return `{object with ${Object.keys(value).length} keys}`;
  return cutString(String(value), Math.max(20, budget - 20));
}

/** Rows a preview shows at most: enough to see the shape, few enough to stay compact. */
export const PREVIEW_ROWS = 5;

/** Up to PREVIEW_ROWS leading rows that fit `budget` characters of JSON, each with long values cut. */
export function previewRows(rows: readonly unknown[], budget: number): JsonValue[] {
  const kept: JsonValue[] = [];
  let used = 2;
  for (const row of rows.slice(0, PREVIEW_ROWS)) {
    const short = shrink(row, DETAILS[1]!);
    const size = JSON.stringify(short).length + 1;
    if (used + size > budget) break;
    kept.push(short);
    used += size;
  }
  return kept;
}

/** Preview rows of a JSON array read from its head only, never the whole text. */
export function previewArrayHead(text: string, budget: number): JsonValue[] {
  const elements = firstArrayElements(text, PREVIEW_ROWS, Math.max(64_000, budget * 40));
  const rows: unknown[] = [];
  for (const element of elements) {
    try {
      rows.push(JSON.parse(element));
    } catch {
      break;
    }
  }
  return previewRows(rows, budget);
}

/** The head of a text, cut at a line end when one is near, else off any token (see `cutPoint`). */
export function textHead(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const lineEnd = text.lastIndexOf("\n", budget);
  return text.slice(0, lineEnd > budget / 2 ? lineEnd : cutPoint(text, budget));
}
