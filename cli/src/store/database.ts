import { openBundle, openSegmentTables, RecordingStore, type RecordingTables } from "@harnessx/recorder";
import { CliError, ExitCode, oneLine } from "../errors.js";
import { assertReadOnly } from "./read-only-sql.js";
import { runIdsIn, type Target } from "./resolve.js";

/** Without `allowWrite`, SQL may read the tables and nothing else (no files, no ATTACH, no INSTALL, no writes). */
export interface SqlAccess {
  allowWrite?: boolean;
}

/** Rows of a SQL result with their column names (kept even when there are no rows). */
export interface QueryResult {
  columns: string[];
  rows: Array<Record<string, unknown>>;
}

/**
 * DuckDB tables `events`, `spans`, `artifacts` over one run, a bundle, or the whole store. A bundle
 * goes through the recorder's `RecordingDatabase`; store runs are read by DuckDB from their segment
 * files (same tables and columns, much faster on large runs: the recorder's openSegmentTables).
 */
export async function openDatabase(scope: Target | { kind: "store"; storeDir: string }, access: SqlAccess = {}): Promise<RecordingTables> {
  const options = { readOnly: !access.allowWrite };
  if (scope.kind === "bundle") return RecordingStore.openBundleDatabase(await openBundle(scope.path), options);
  if (scope.kind === "run") return openSegmentTables(scope.storeDir, [scope.runDir], options);
  return openSegmentTables(scope.storeDir, (await runIdsIn(scope.storeDir)).map((r) => r.dir), options);
}

/**
 * Runs SQL; a DuckDB error becomes a one-line CliError (exit 1) carrying DuckDB's own message.
 * Without `allowWrite`, statements other than reads are refused first (exit 2).
 */
export async function runQuery(db: RecordingTables, sql: string, access: SqlAccess = {}): Promise<QueryResult> {
  if (!access.allowWrite) await assertReadOnly(db.connection, sql);
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
