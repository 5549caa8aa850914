import type { JsonValue } from "@harnessx/core/extension";
import { csvHead, sniffCsv, type CsvDelimiter } from "./csv.js";
import { previewArrayHead, previewRows, summarizeJson, textHead } from "./preview.js";

/**
 * How a tool result's text was classified: a JSON array of objects, NDJSON or CSV (tabular,
 * so `read_result` can query it with SQL), other JSON, or plain text.
 */
export type ResultKind = "json_array_of_objects" | "json" | "ndjson" | "csv" | "text";
export type TabularKind = "json_array_of_objects" | "ndjson" | "csv";

export function isTabular(kind: ResultKind): kind is TabularKind {
  return kind === "json_array_of_objects" || kind === "ndjson" || kind === "csv";
}

/** What the content looks like, read without loading it into a database. */
export interface Detection {
  kind: ResultKind;
  /** Short and valid: rows for JSON tables, the head for CSV and text, a shrunken copy for JSON. */
  preview: JsonValue;
  /** NDJSON lines that are not a JSON object. */
  unreadableLines?: number;
  delimiter?: CsvDelimiter;
  /**
   * True when the kind was read from the head only (a JSON array too large to parse here);
   * loading the table confirms it.
   */
  provisional?: boolean;
}

/** Above this many characters a JSON array is not parsed in JavaScript: DuckDB reads it. */
export const PARSE_LIMIT_CHARS = 8_000_000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Classifies a tool result's text and builds its preview (at most `budget` characters of JSON). */
export function detectKind(text: string, budget: number): Detection {
  const first = text.trimStart().charAt(0);
  if (first === "[" || first === "{") {
    if (first === "[" && text.length > PARSE_LIMIT_CHARS) {
      return { kind: "json_array_of_objects", preview: previewArrayHead(text, budget), provisional: true };
    }
    const parsed = tryParse(text);
    if (parsed.ok) return classifyJson(parsed.value, budget);
    const nd = readNdjson(text, budget);
    if (nd) return nd;
    return { kind: "text", preview: textHead(text, budget) };
  }
  const csv = sniffCsv(text);
  if (csv) return { kind: "csv", preview: csvHead(text, csv, budget), delimiter: csv.delimiter };
  return { kind: "text", preview: textHead(text, budget) };
}

/** A fully parsed JSON value: a table when it is a non-empty array of objects. */
export function classifyJson(value: unknown, budget: number): Detection {
  if (Array.isArray(value) && value.length > 0 && value.every(isPlainObject)) {
    return { kind: "json_array_of_objects", preview: previewRows(value.slice(0, 20), budget) };
  }
  return { kind: "json", preview: summarizeJson(value, budget) };
}

/**
 * NDJSON when the first line is a JSON object and readable object lines outnumber
 * the unreadable ones; counts every unreadable line.
 */
export function readNdjson(text: string, budget: number): Detection | undefined {
  let readable = 0;
  let unreadable = 0;
  const head: unknown[] = [];
  let from = 0;
  while (from < text.length) {
    let end = text.indexOf("\n", from);
    if (end < 0) end = text.length;
    const line = text.slice(from, end).trim();
    from = end + 1;
    if (line === "") continue;
    const parsed = line.charCodeAt(0) === 0x7b ? tryParse(line) : { ok: false as const };
    if (parsed.ok && isPlainObject(parsed.value)) {
      readable++;
      if (head.length < 20) head.push(parsed.value);
    } else {
      if (readable === 0) return undefined;
      unreadable++;
    }
  }
  if (readable < 2 || unreadable >= readable) return undefined;
  return { kind: "ndjson", preview: previewRows(head, budget), unreadableLines: unreadable };
}
