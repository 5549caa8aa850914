import { promises as fs } from "node:fs";
import { join } from "node:path";
import { lockToReading } from "../store/read-only.js";
import { newTables, openLineTables, type RecordingTables } from "../store/recording-tables.js";
import { sqlList } from "../store/sql-literal.js";
import { DATASET_TABLES, partitionDate, type DatasetTable } from "./layout.js";
import { readDatasetMarker } from "./marker.js";

/** Options of `openDatasetTables`. */
export interface DatasetTableOptions {
  /** SQL may read the tables and nothing else (see `lockToReading`). */
  readOnly?: boolean;
  /**
   * Only runs that started on or after this UTC day (milliseconds since the epoch; its date is
   * the first partition read): the date filter is applied to the partitions, so older ones are
   * never opened.
   */
  since?: number;
}

/** Columns the dataset's artifact index has beyond the store's `artifacts` table: where each artifact's bytes are. */
const DATASET_ONLY_COLUMNS: Partial<Record<DatasetTable, Array<[string, string]>>> = {
  artifacts: [["object_sha256", "VARCHAR"]],
};

let storeColumns: Promise<Map<DatasetTable, Array<[string, string]>>> | undefined;

/** The store tables' columns and types, read from empty store tables: the dataset's views have the same. */
function columnsOfStoreTables(): Promise<Map<DatasetTable, Array<[string, string]>>> {
  return (storeColumns ??= (async () => {
    const tables = await openLineTables([], { runs: new Map(), storedSizes: new Map() });
    try {
      const columns = new Map<DatasetTable, Array<[string, string]>>();
      for (const table of DATASET_TABLES) {
        const rows = (await tables.connection.runAndReadAll(`DESCRIBE ${table}`)).getRowObjectsJson();
        columns.set(table, [...rows.map((r): [string, string] => [String(r.column_name), String(r.column_type)]), ...(DATASET_ONLY_COLUMNS[table] ?? [])]);
      }
      return columns;
    } finally {
      tables.close();
    }
  })());
}

/** The Parquet files of a table in the partitions asked for (a folder whose name is not `date=...` is not a partition). */
async function tableFiles(dataset: string, table: DatasetTable, fromDate: string | undefined): Promise<string[]> {
  const folder = join(dataset, table);
  const partitions = (await fs.readdir(folder).catch(() => [] as string[])).filter((name) => /^date=\d{4}-\d{2}-\d{2}$/.test(name)).sort();
  const files: string[] = [];
  for (const partition of partitions) {
    if (fromDate !== undefined && partition.slice("date=".length) < fromDate) continue;
    for (const name of (await fs.readdir(join(folder, partition))).sort()) {
      if (name.endsWith(".parquet") && !name.startsWith(".")) files.push(join(folder, partition, name));
    }
  }
  return files;
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * A dataset folder's tables for SQL: views `runs`, `events`, `spans` and `artifacts` over its
 * Parquet files (read_parquet with hive_partitioning), with the store tables' columns and types,
 * so the SQL `trace query --all` runs on a store runs here unchanged (`artifacts` adds
 * `object_sha256`; the `date` partition column is left out of the views). A table no run wrote
 * is empty. The folder must be a dataset (`DatasetError` otherwise): the S3 reader points this at
 * the local folder it fetched partitions into.
 */
export async function openDatasetTables(dataset: string, options: DatasetTableOptions = {}): Promise<RecordingTables> {
  await readDatasetMarker(dataset);
  const fromDate = options.since === undefined ? undefined : partitionDate(options.since);
  return openParquetViews((table) => tableFiles(dataset, table, fromDate), { readOnly: options.readOnly });
}

/**
 * The dataset views over the Parquet files `filesOf` gives for each table: local paths, or remote
 * URLs once `prepare` has loaded what reads them (DuckDB's httpfs). One place builds the views,
 * so a dataset read from anywhere has the same columns.
 */
export async function openParquetViews(
  filesOf: (table: DatasetTable) => Promise<string[]>,
  options: { readOnly?: boolean; prepare?: (connection: RecordingTables["connection"]) => Promise<void> } = {},
): Promise<RecordingTables> {
  const columns = await columnsOfStoreTables();
  const tables = await newTables();
  const readable: string[] = [];
  try {
    await options.prepare?.(tables.connection);
    for (const table of DATASET_TABLES) {
      const files = await filesOf(table);
      readable.push(...files);
      const list = columns.get(table)!;
      const select = files.length
        ? `SELECT ${list.map(([name, type]) => `${quoted(name)}::${type} AS ${quoted(name)}`).join(", ")} FROM read_parquet(${sqlList(files)}, hive_partitioning = true)`
        : `SELECT ${list.map(([name, type]) => `NULL::${type} AS ${quoted(name)}`).join(", ")} WHERE false`;
      await tables.connection.run(`CREATE VIEW ${table} AS ${select}`);
    }
    if (options.readOnly) await lockToReading(tables.connection, readable);
  } catch (error) {
    tables.close();
    throw error;
  }
  return tables;
}
