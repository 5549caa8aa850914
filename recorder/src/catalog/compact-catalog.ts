import { closeSync, openSync, promises as fs, writeSync } from "node:fs";
import { join } from "node:path";
import { catalogDirOf } from "../format/layout.js";
import { writeAtomically } from "../recording/seal.js";
import { readRegularFile } from "@harnessx/core/extension";
import { MAX_METADATA_FILE_BYTES } from "../format/read-limits.js";
import { isProcessAlive } from "../store/recover.js";
import type { CatalogEntry } from "./catalog-entry.js";
import { CATALOG_FORMAT, COMPACT_LOCK_FILE, logGenerations, logPath, SNAPSHOT_FILE } from "./catalog-files.js";
import { readCatalog, type CatalogHeader } from "./read-catalog.js";
import { reconcileFolders } from "./reconcile-folders.js";
import { scanRuns } from "./scan-runs.js";

/** Options of `compactCatalog`. */
export interface CompactCatalogOptions {
  /**
   * Build the snapshot from the runs' folders (every `run.json`) rather than from the catalog:
   * for a store without a catalog, or with a damaged one.
   */
  rebuild?: boolean;
  /**
   * How long a compaction waits, once it has started a new log, before it reads the older ones:
   * a writer that listed the logs just before may still append to the older one. Default 2000 ms.
   */
  graceMs?: number;
}

/** What `compactCatalog` did. */
export type CompactCatalogResult =
  | { done: true; runs: number; foldedLogs: number }
  /** Another live process is compacting the catalog (it holds `compact.lock`). */
  | { done: false; busyPid: number };

/** Deleted runs' entries are dropped from the snapshot a day after the deletion. */
const TOMBSTONE_MS = 24 * 60 * 60 * 1000;

/**
 * Folds the catalog's logs into its snapshot, or rebuilds it from the runs' folders. One process
 * at a time (`compact.lock`). Crash-safe at every step: writers go on appending to a new log
 * (1), the snapshot is replaced whole (2), and the folded logs are deleted only after (3); a
 * kill before (2) leaves the old snapshot and every log, one after (2) logs that the next read
 * finds already folded (the entry written last wins, so reading one twice changes nothing).
 */
export async function compactCatalog(root: string, options: CompactCatalogOptions = {}): Promise<CompactCatalogResult> {
  const dir = catalogDirOf(root);
  await fs.mkdir(dir, { recursive: true });
  const lock = join(dir, COMPACT_LOCK_FILE);
  const busyPid = await takeLock(lock);
  if (busyPid !== undefined) return { done: false, busyPid };
  try {
    const older = logGenerations(dir);
    const through = older.at(-1) ?? 0;
    // (1) From here on writers append to the new log, which this compaction leaves alone.
    closeSync(openSync(logPath(dir, through + 1), "a"));
    let entries: Map<string, CatalogEntry>;
    if (options.rebuild) {
      // Every run.json was written before its line in an older log, so the scan sees at least what they say.
      entries = await scanRuns(root);
    } else {
      await new Promise((resolve) => setTimeout(resolve, options.graceMs ?? 2000));
      ({ entries } = await readCatalog(root));
      // Folders the logs never named (runs older than the catalog) go into the snapshot too.
      await reconcileFolders(root, entries);
    }
    const now = Date.now();
    for (const [folder, entry] of entries)
      if (!entry.run && now - entry.writtenAt > TOMBSTONE_MS) entries.delete(folder);
    // (2) The snapshot is replaced whole, newest run first.
    const header: CatalogHeader = { format: CATALOG_FORMAT, v: 1, through };
    const kept = [...entries.values()].sort((a, b) => (b.run?.startedAt ?? 0) - (a.run?.startedAt ?? 0));
    await writeAtomically(
      join(dir, SNAPSHOT_FILE),
      [header, ...kept].map((line) => `${JSON.stringify(line)}\n`).join(""),
    );
    // (3) What the snapshot folded goes.
    for (const generation of older) await fs.rm(logPath(dir, generation), { force: true });
    return { done: true, runs: kept.filter((e) => e.run).length, foldedLogs: older.length };
  } finally {
    await fs.rm(lock, { force: true });
  }
}

/** Takes the lock, or returns the pid of the live process holding it. A dead holder's lock is taken over. */
async function takeLock(path: string): Promise<number | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await pidIn(path);
    if (holder !== undefined && holder !== process.pid && isProcessAlive(holder)) return holder;
    await fs.rm(path, { force: true });
  }
  return -1;
}

/** The pid a lock file holds, or undefined when it holds none (a holder killed mid-write). */
async function pidIn(path: string): Promise<number | undefined> {
  const text = await readRegularFile(path, { maxBytes: MAX_METADATA_FILE_BYTES }).then(
    (bytes) => bytes.toString("utf8"),
    () => "",
  );
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}
