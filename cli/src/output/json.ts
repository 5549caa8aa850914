import { escapeJsonControls } from "./terminal-safe.js";

/**
 * Makes values from DuckDB and the recorder printable as JSON: bigints become numbers when
 * exact (strings otherwise), dates become ISO strings, typed arrays become byte counts' hex.
 */
export function toJsonSafe(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("hex");
  if (Array.isArray(value)) return value.map(toJsonSafe);
  if (value && typeof value === "object") {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") return toJsonSafe((value as { toJSON(): unknown }).toJSON());
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJsonSafe(v);
    return out;
  }
  return value;
}

/** One JSON document per call, indented for people, one line per value for NDJSON consumers; control characters escaped. */
export function stringifyJson(value: unknown, pretty = true): string {
  return escapeJsonControls(JSON.stringify(toJsonSafe(value), null, pretty ? 2 : undefined));
}
