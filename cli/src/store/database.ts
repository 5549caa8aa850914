import { openBundle, RecordingStore, type RecordingDatabase } from "@harnessx/recorder";
import { CliError, ExitCode, oneLine } from "../errors.js";
import type { Target } from "./resolve.js";

/** Rows of a SQL result with their column names (kept even when there are no rows). */
export interface QueryResult {
  columns: string[];
  rows: Array<Record<string, unknown>>;
}

/** The recorder's DuckDB tables (`events`, `spans`, `artifacts`) over one run, a bundle, or the whole store. */
export async function openDatabase(scope: Target | { kind: "store"; storeDir: string }): Promise<RecordingDatabase> {
  if (scope.kind === "bundle") return RecordingStore.openBundleDatabase(await openBundle(scope.path));
  const store = new RecordingStore(scope.storeDir);
  return scope.kind === "run" ? store.openDatabase({ runIds: [scope.runId] }) : store.openDatabase();
}

/** Runs SQL; a DuckDB error becomes a one-line CliError (exit 1) carrying DuckDB's own message. */
export async function runQuery(db: RecordingDatabase, sql: string): Promise<QueryResult> {
  let reader;
  try {
    reader = await db.connection.runAndReadAll(sql);
  } catch (err) {
    throw new CliError(ExitCode.FAILURE, "query_failed", `query failed: ${oneLine((err as Error).message)}`, { cause: err });
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
