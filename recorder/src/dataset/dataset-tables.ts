import { promises as fs } from "node:fs";
import { join } from "node:path";
import { lockToReading } from "../store/read-only.js";
import { newTables, type RecordingTables } from "../store/recording-tables.js";
import { TABLE_COLUMNS, type TableColumn } from "../format/table-columns.js";
import { sqlList } from "../store/sql-literal.js";
import { DATASET_TABLES, partitionDate, type DatasetTable } from "./layout.js";
import { readDatasetMarker } from "./marker.js";
import { DatasetError } from "./errors.js";
import { sqlLimitErrorOf } from "../store/sql-limit-error.js";

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
const DATASET_ONLY_COLUMNS: Partial<Record<DatasetTable, readonly TableColumn[]>> = {
  artifacts: [{ name: "object_sha256", type: "VARCHAR" }],
};

/** A dataset table's columns: the store table's (`TABLE_COLUMNS`), then its own. */
const columnsOf = (table: DatasetTable): readonly TableColumn[] => [
  ...TABLE_COLUMNS[table],
  ...(DATASET_ONLY_COLUMNS[table] ?? []),
];

/** The Parquet files of a table in the partitions asked for (a folder whose name is not `date=...` is not a partition). */
async function tableFiles(dataset: string, table: DatasetTable, fromDate: string | undefined): Promise<string[]> {
  const folder = join(dataset, table);
  const partitions = (await fs.readdir(folder).catch(() => [] as string[]))
    .filter((name) => /^date=\d{4}-\d{2}-\d{2}$/.test(name))
    .sort();
  const files: string[] = [];
  for (const partition of partitions) {
    if (fromDate !== undefined && partition.slice("date=".length) < fromDate) continue;
    // Regular files only: DuckDB would block on a FIFO named like a table file.
    const entries = await fs.readdir(join(folder, partition), { withFileTypes: true });
    for (const name of entries
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort()) {
      if (name.endsWith(".parquet") && !name.startsWith(".")) files.push(join(folder, partition, name));
    }
  }
  return files;
}

/**
 * The exporter writes one row per `runs` file: more rows than files is a crafted file, whose
 * rows (a hundred million of them compress to a few megabytes) every listing would read. The
 * count comes from the files' footers, without reading their rows.
 */
async function checkOneRunPerFile(
  connection: RecordingTables["connection"],
  files: readonly string[],
  dataset: string,
): Promise<void> {
  if (files.length === 0) return;
  const rows = Number(
    (await connection.runAndReadAll(`SELECT count(*) AS n FROM read_parquet(${sqlList(files)})`)).getRowObjectsJson()[0]
      .n,
  );
  if (rows > files.length)
    throw new DatasetError(
      "invalid_file",
      dataset,
      `the runs table of ${dataset} holds ${rows} rows in ${files.length} file(s): the exporter writes one run per file, so a file was made elsewhere; refused`,
    );
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The columns a Parquet source holds (from the files' footers). */
async function columnNames(connection: RecordingTables["connection"], source: string): Promise<Set<string>> {
  const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjectsJson();
  return new Set(described.map((row) => String(row.column_name)));
}

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
  return openParquetViews((table) => tableFiles(dataset, table, fromDate), {
    readOnly: options.readOnly,
    name: dataset,
  });
}

/**
 * The dataset views over the Parquet files `filesOf` gives for each table: local paths, or remote
 * URLs once `prepare` has loaded what reads them (DuckDB's httpfs). One place builds the views,
 * so a dataset read from anywhere has the same columns.
 */
export async function openParquetViews(
  filesOf: (table: DatasetTable) => Promise<string[]>,
  options: {
    readOnly?: boolean;
    prepare?: (connection: RecordingTables["connection"]) => Promise<void> /** The dataset, for errors. */;
    name?: string;
  } = {},
): Promise<RecordingTables> {
  const tables = await newTables();
  const readable: string[] = [];
  try {
    await options.prepare?.(tables.connection);
    for (const table of DATASET_TABLES) {
      const files = await filesOf(table);
      readable.push(...files);
      const list = columnsOf(table);
      const view = async () => {
        if (!files.length)
          return `SELECT ${list.map(({ name, type }) => `NULL::${type} AS ${quoted(name)}`).join(", ")} WHERE false`;
        // Files written before a column was added lack it: read by name across them, and the column as NULL where none has it.
        const byName = list.some((c) => c.added);
        const source = `read_parquet(${sqlList(files)}, hive_partitioning = true${byName ? ", union_by_name = true" : ""})`;
        const present = byName ? await columnNames(tables.connection, source) : undefined;
        const value = ({ name, type, added }: TableColumn) =>
          added && !present?.has(name) ? `NULL::${type}` : `${quoted(name)}::${type}`;
        return `SELECT ${list.map((c) => `${value(c)} AS ${quoted(c.name)}`).join(", ")} FROM ${source}`;
      };
      await (async () => tables.connection.run(`CREATE VIEW ${table} AS ${await view()}`))().catch((error: unknown) => {
        // The columns the exporter writes cannot be read from these files: they were made elsewhere.
        throw (
          sqlLimitErrorOf(error) ??
          new DatasetError(
            "invalid_file",
            options.name ?? "the dataset",
            `the ${table} files of ${options.name ?? "the dataset"} do not hold the dataset's columns (${(error as Error).message.split("\n", 1)[0].slice(0, 200)})`,
          )
        );
      });
      if (table === "runs") await checkOneRunPerFile(tables.connection, files, options.name ?? "the dataset");
    }
    if (options.readOnly) await lockToReading(tables.connection, readable);
  } catch (error) {
    tables.close();
    throw error;
  }
  return tables;
}
