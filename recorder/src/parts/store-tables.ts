import { catalogedRunFolders } from "../read/source.js";
import { typedSelect } from "../format/table-columns.js";
import { openTables, type RecordingTables, type TableOptions } from "../store/recording-tables.js";
import { buildSegmentTables } from "../store/segment-tables.js";
import { sqlList } from "../store/sql-literal.js";
import { committedParts, listPartFiles, PART_TABLES, type PartFile, type PartTable } from "./part-files.js";

/** The compaction a file belongs to, from its path (`.../<stamp>.parquet`). */
const STAMP_OF_FILE = String.raw`regexp_extract(filename, '([^/\\]+)\.parquet$', 1)`;

/**
 * The SQL tables over every run of a store: runs its compactions put into the partitions
 * (`compactRuns`) read from there, the others from their segments, each run exactly once. A
 * run is taken from the partitions when a committed file holds it and the catalog still lists
 * it (a run retention deleted since is left out); of two compactions that hold one run, the
 * later one's rows are read. What `trace query --all` opens.
 */
export async function openStoreTables(root: string, options: TableOptions = {}): Promise<RecordingTables> {
  const folders = await catalogedRunFolders(root);
  const parts = committedParts((await listPartFiles(root)).files);
  return openTables(async (tables) => {
    const { connection } = tables;
    const compacted = parts.length
      ? await chooseCompacted(
          tables,
          parts,
          folders.map((f) => f.runId),
        )
      : new Set();
    const segmentDirs = folders.filter((f) => !compacted.has(f.runId)).map((f) => f.dir);
    const storedIds = compacted.size
      ? (
          await tables.query(
            `SELECT DISTINCT sha256 FROM ${partSource(filesOf(parts, "artifacts"))} p JOIN hx_part_runs c ON c.run_id = p.run_id AND c.stamp = ${STAMP_OF_FILE}`,
          )
        ).map((row) => String(row.sha256))
      : [];
    const readable = await buildSegmentTables(tables, root, segmentDirs, { ...options, storedIds });
    if (compacted.size) {
      for (const table of PART_TABLES) {
        // `artifacts` is a view over `events`, which is about to hold the compacted runs' events too.
        if (table === "artifacts" || (table === "spans" && options.spans === false)) continue;
        const files = filesOf(parts, table);
        if (files.length === 0) continue;
        await renameTable(tables, table, `hx_segment_${table}`);
        const columns = typedSelect(table, (c) => `p.${c.name}`);
        const fromParts = `SELECT ${columns} FROM ${partSource(files)} p JOIN hx_part_runs c ON c.run_id = p.run_id AND c.stamp = ${STAMP_OF_FILE}`;
        await connection.run(`CREATE VIEW ${table} AS SELECT * FROM hx_segment_${table} UNION ALL ${fromParts}`);
        readable.push(...files);
      }
    }
    return readable;
  }, options);
}

/** The paths of one table's files. */
export const filesOf = (parts: readonly PartFile[], table: PartTable): string[] =>
  parts.filter((p) => p.table === table).map((p) => p.path);

const partSource = (files: readonly string[]): string =>
  `read_parquet(${sqlList(files)}, filename = true, union_by_name = true)`;

/**
 * `hx_part_runs` (run id, stamp): the runs the partitions hold that the catalog lists, each with
 * the latest compaction holding it. Returns their ids.
 */
async function chooseCompacted(
  tables: RecordingTables,
  parts: readonly PartFile[],
  listed: readonly string[],
): Promise<Set<string>> {
  const { connection } = tables;
  await connection.run("CREATE TEMP TABLE hx_listed_runs (run_id VARCHAR)");
  const appender = await connection.createAppender("hx_listed_runs");
  for (const runId of listed) {
    appender.appendVarchar(runId);
    appender.endRow();
  }
  appender.closeSync();
  await connection.run(`CREATE TEMP TABLE hx_part_runs AS
SELECT run_id, max(stamp) AS stamp FROM (SELECT run_id, ${STAMP_OF_FILE} AS stamp FROM ${partSource(filesOf(parts, "runs"))})
WHERE run_id IN (SELECT run_id FROM hx_listed_runs) GROUP BY run_id`);
  return new Set((await tables.query("SELECT run_id FROM hx_part_runs")).map((row) => String(row.run_id)));
}

/** The runs the committed `runs` files hold (whether the catalog lists them or not). */
export async function compactedRunIds(tables: RecordingTables, runsFiles: readonly string[]): Promise<Set<string>> {
  if (runsFiles.length === 0) return new Set();
  const rows = await tables.query(`SELECT DISTINCT run_id FROM ${partSource(runsFiles)}`);
  return new Set(rows.map((row) => String(row.run_id)));
}

/** Renames a table or a view (DuckDB names the statement by which it is). */
async function renameTable(tables: RecordingTables, from: string, to: string): Promise<void> {
  const [row] = await tables.query(`SELECT table_type FROM information_schema.tables WHERE table_name = '${from}'`);
  const kind = row?.table_type === "VIEW" ? "VIEW" : "TABLE";
  await tables.connection.run(`ALTER ${kind} ${from} RENAME TO ${to}`);
}
