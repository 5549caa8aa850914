import type { DuckDBAppender, DuckDBValue } from "@duckdb/node-api";
import { loadedDuckdb } from "./duckdb.js";

/** Appends one row of values (null for NULL), each by its JavaScript type. */
export function appendRow(appender: DuckDBAppender, values: readonly DuckDBValue[]): void {
  for (const value of values) {
    if (value === null || value === undefined) appender.appendNull();
    else if (typeof value === "string") appender.appendVarchar(value);
    else if (typeof value === "boolean") appender.appendBoolean(value);
    else if (typeof value === "bigint") appender.appendBigInt(value);
    else if (typeof value === "number") appender.appendDouble(value);
    else appender.appendValue(value);
  }
  appender.endRow();
}

/** A TIMESTAMP_MS value from milliseconds since the epoch (NULL when not a number). */
export const msValue = (value: number | null | undefined): DuckDBValue =>
  typeof value === "number" && Number.isFinite(value)
    ? loadedDuckdb().timestampMillisValue(BigInt(Math.round(value)))
    : null;
/** A BIGINT value (NULL when not a number). */
export const bigValue = (value: unknown): DuckDBValue =>
  typeof value === "number" && Number.isFinite(value) ? BigInt(Math.round(value)) : null;
/** A JSON column's text (NULL when undefined). */
export const jsonValue = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
