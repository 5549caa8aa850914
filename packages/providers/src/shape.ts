/** Small readers for untrusted JSON from a server: no casts, no throws. */

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short description of an unexpected value, for error messages. */
export function describe(value: unknown): string {
  if (typeof value === "string") return `text ${JSON.stringify(value.slice(0, 80))}`;
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

export function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** A value `for await` can read: what a client's streamed reply must be. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}
