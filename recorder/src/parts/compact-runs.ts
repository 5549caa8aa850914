import { existsSync, promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { newestRuns, openCatalog, type RunEntry } from "../catalog/open-catalog.js";
import { partitionDate } from "../dataset/layout.js";
import { takeProcessLock } from "../store/process-lock.js";
import { newTables, type OwnedTables } from "../store/recording-tables.js";
import { buildSegmentTables } from "../store/segment-tables.js";
import { sqlString } from "../store/sql-literal.js";
import {
  committedParts,
  listPartFiles,
  newStamp,
  PART_TABLES,
  PARTS_LOCK_FILE,
  partPath,
  partsDirOf,
  storeIdOf,
} from "./part-files.js";
import type { CompactRunsOptions, CompactRunsResult } from "./compact-types.js";
import { compactedRunIds, filesOf } from "./store-tables.js";

export type { CompactRunsOptions, CompactRunsResult, CompactStep } from "./compact-types.js";

/** Runs one compaction takes at most, by default: its tables are built in one DuckDB. */
const DEFAULT_MAX_RUNS = 10_000;

/**
 * Compacts ended runs into the store's partitions (`<store>/parts/<table>/date=<day>/<stamp>.parquet`,
 * the tables `trace query` reads, spans mapped once and stored): one file per table and start day
 * per compaction. One process at a time (`parts/compact.lock`). Crash-safe at every step: each
 * file is written under a temporary name, synced and renamed; the `runs` files go last and are
 * what commits a compaction's other files (a reader takes no file of a compaction whose `runs`
 * file for that day is missing), so a kill leaves each run read from its segments or from the
 * partitions, never both and never neither; the next compaction deletes what a killed one left.
 */
export async function compactRuns(root: string, options: CompactRunsOptions = {}): Promise<CompactRunsResult> {
  const catalog = await openCatalog(root);
  if (!catalog) return { done: true, runs: 0, events: 0, files: [] };
  await fs.mkdir(partsDirOf(root), { recursive: true });
  const lock = join(partsDirOf(root), PARTS_LOCK_FILE);
  const busyPid = await takeProcessLock(lock);
  if (busyPid !== undefined) return { done: false, busyPid };
  try {
    const { files, stray } = await listPartFiles(root);
    const committed = committedParts(files);
    // What a killed compaction left: files it never committed, and temporary ones.
    for (const file of files) if (!committed.includes(file)) await fs.rm(file.path, { force: true });
    for (const path of stray) await fs.rm(path, { recursive: true, force: true });
    const tables = await newTables();
    try {
      const compacted = await compactedRunIds(tables, filesOf(committed, "runs"));
      const chosen: RunEntry[] = [];
      for await (const entry of newestRuns(catalog)) {
        if (chosen.length >= (options.maxRuns ?? DEFAULT_MAX_RUNS)) break;
        if (isFinal(entry) && !compacted.has(entry.run.runId)) chosen.push(entry);
      }
      await options.onStep?.("selected");
      if (chosen.length === 0) return { done: true, runs: 0, events: 0, files: [] };
      return await writeParts(tables, root, chosen, options);
    } finally {
      tables.close();
    }
  } finally {
    await fs.rm(lock, { force: true });
  }
}

/** A run whose recording will not change: ended, kept with its events, and not one `agent.resume` may continue. */
function isFinal({ run }: RunEntry): boolean {
  // A running run, or one waiting for an approval, has not ended.
  if (run.endedAt === null || run.detail === "summary") return false;
  // A start no calendar day holds (a hand-edited run.json) has no partition: it stays in its segments.
  if (Number.isNaN(new Date(run.startedAt).getTime())) return false;
  return !(run.durable && (run.status === "crashed" || run.status === "incomplete"));
}

async function writeParts(
  tables: OwnedTables,
  root: string,
  chosen: RunEntry[],
  options: CompactRunsOptions,
): Promise<CompactRunsResult> {
  const stamp = newStamp(Date.now(), await storeIdOf(root));
  await buildSegmentTables(
    tables,
    root,
    chosen.map((entry) => join(root, "runs", entry.folder)),
  );
  const { connection } = tables;
  await connection.run("CREATE TEMP TABLE hx_batch (run_id VARCHAR, date VARCHAR)");
  const appender = await connection.createAppender("hx_batch");
  const dates = new Set<string>();
  for (const { run } of chosen) {
    const date = partitionDate(run.startedAt);
    dates.add(date);
    appender.appendVarchar(run.runId);
    appender.appendVarchar(date);
    appender.endRow();
  }
  appender.closeSync();
  const written: string[] = [];
  for (const table of PART_TABLES) {
    // One pass over the table, DuckDB splitting it by day, into a folder no reader looks in.
    const scratch = join(partsDirOf(root), table, `.tmp-${stamp}`);
    await fs.mkdir(scratch, { recursive: true });
    await connection.run(
      `COPY (SELECT t.*, b.date AS date FROM ${table} t JOIN hx_batch b USING (run_id)) TO ${sqlString(scratch)} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (date), FILENAME_PATTERN 'part_{i}', OVERWRITE_OR_IGNORE true)`,
    );
    for (const date of dates) {
      const path = partPath(root, table, date, stamp);
      await fs.mkdir(dirname(path), { recursive: true });
      const produced = join(scratch, `date=${date}`, "part_0.parquet");
      // A day none of whose runs has a row in the table (no artifacts) gets an empty file: readers list every table.
      if (!existsSync(produced)) {
        await fs.mkdir(dirname(produced), { recursive: true });
        await connection.run(
          `COPY (SELECT t.* FROM ${table} t LIMIT 0) TO ${sqlString(produced)} (FORMAT parquet, COMPRESSION zstd)`,
        );
      }
      await moveDurably(produced, path);
      written.push(path);
    }
    await fs.rm(scratch, { recursive: true, force: true });
    // The runs files, moved last, commit the rest.
    await options.onStep?.(table === "runs" ? "committed" : table);
  }
  const events = chosen.reduce((sum, { run }) => sum + (run.summary?.events ?? 0), 0);
  return { done: true, runs: chosen.length, events, files: written };
}

/** Syncs a file, renames it into place and syncs its folder. */
async function moveDurably(from: string, path: string): Promise<void> {
  const file = await fs.open(from, "r");
  await file.sync().finally(() => file.close());
  await fs.rename(from, path);
  const folder = await fs.open(dirname(path), "r");
  await folder.sync().finally(() => folder.close());
}
