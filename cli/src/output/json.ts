import { escapeJsonControls } from "./terminal-safe.js";

/**
 * Makes values from DuckDB and the recorder printable as JSON: bigints become numbers when
 * exact (strings otherwise), dates become ISO strings, typed arrays become byte counts' hex.
 */
export function toJsonSafe(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("hex");
  if (Array.isArray(value)) return value.map(toJsonSafe);
  if (value && typeof value === "object") {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function")
      return toJsonSafe((value as { toJSON(): unknown }).toJSON());
    // fromEntries defines members: a "__proto__" one stays a member instead of becoming the prototype.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSafe(v)]));
  }
  return value;
}

/** One JSON document per call, indented for people, one line per value for NDJSON consumers; control characters escaped. */
export function stringifyJson(value: unknown, pretty = true): string {
  return escapeJsonControls(JSON.stringify(toJsonSafe(value), null, pretty ? 2 : undefined));
}
