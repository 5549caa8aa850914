import type { DuckDBResultReader } from "@duckdb/node-api";
import { sqlLimitErrorOf, type RecordingTables } from "@harnessx/recorder";
import { CliError, ExitCode, oneLine } from "../errors.js";
import { assertReadOnly } from "./read-only-sql.js";

/** Without `allowWrite`, SQL may read the tables and nothing else (no files, no ATTACH, no INSTALL, no writes). */
export interface SqlAccess {
  allowWrite?: boolean;
}

/** A value bound to a `?` of the SQL. */
export type QueryValue = string | number | boolean | null;

/** Rows of a SQL result with their column names (kept even when there are no rows). */
export interface QueryResult {
  columns: string[];
  rows: Array<Record<string, unknown>>;
}

/**
 * Runs SQL; a DuckDB error becomes a one-line CliError (exit 1) carrying DuckDB's own message.
 * Without `allowWrite`, statements other than reads are refused first (exit 2).
 */
export async function runQuery(
  db: RecordingTables,
  sql: string,
  access: SqlAccess = {},
  values?: QueryValue[],
): Promise<QueryResult> {
  if (!access.allowWrite) await assertReadOnly(db.connection, sql);
  let reader: DuckDBResultReader;
  try {
    reader = await db.connection.runAndReadAll(sql, values);
  } catch (err) {
    const limit = sqlLimitErrorOf(err);
    if (limit) throw new CliError(ExitCode.INVALID_INPUT, limit.code, `query failed: ${limit.message}`, { cause: err });
    throw new CliError(ExitCode.FAILURE, "query_failed", `query failed: ${oneLine((err as Error).message)}`, {
      cause: err,
    });
  }
  const columns = reader.columnNames();
  const jsonColumns = columns.filter((_, i) => reader.columnTypes()[i]?.alias === "JSON");
  const rows = reader.getRowObjectsJS() as Array<Record<string, unknown>>;
  // JSON columns (attrs, payload, ...) come back as text; give scripts the values themselves.
  for (const row of rows) for (const column of jsonColumns) row[column] = parseJsonText(row[column]);
  return { columns, rows };
}

function parseJsonText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
