import { closeSync, openSync, promises as fs } from "node:fs";
import { join } from "node:path";
import { catalogDirOf } from "../format/layout.js";
import { writeAtomically } from "../recording/seal.js";
import { takeProcessLock } from "../store/process-lock.js";
import type { CatalogEntry } from "./catalog-entry.js";
import type { CompactCatalogOptions, CompactCatalogResult } from "./compact-types.js";

export type { CompactCatalogOptions, CompactCatalogResult } from "./compact-types.js";
import { CATALOG_FORMAT, COMPACT_LOCK_FILE, logGenerations, logPath, SNAPSHOT_FILE } from "./catalog-files.js";
import { allEntries, readCatalog, type CatalogHeader } from "./read-catalog.js";
import { reconcileFolders } from "./reconcile-folders.js";
import { scanRuns } from "./scan-runs.js";

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
  const busyPid = await takeProcessLock(lock);
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
      entries = await allEntries(await readCatalog(root));
      // Folders the logs never named (runs older than the catalog) go into the snapshot too; gone ones leave it.
      const { gone } = await reconcileFolders(root, { entries, snapshotRuns: [] });
      for (const folder of gone) entries.delete(folder);
    }
    // A deleted run's entry is not kept: its folder is gone, which every reader sees (`reconcileFolders`).
    const runs: CatalogEntry[] = [];
    const others: CatalogEntry[] = [];
    for (const entry of entries.values()) {
      if (entry.run) runs.push(entry);
      else if (entry.problem !== undefined) others.push(entry);
    }
    // (2) The snapshot is replaced whole: its header names every run folder, then one line per run, newest first.
    runs.sort((a, b) => b.run!.startedAt - a.run!.startedAt);
    const header: CatalogHeader = { format: CATALOG_FORMAT, v: 1, through, runs: runs.map((e) => e.folder), others };
    await writeAtomically(
      join(dir, SNAPSHOT_FILE),
      [header, ...runs].map((line) => `${JSON.stringify(line)}\n`).join(""),
    );
    // (3) What the snapshot folded goes.
    for (const generation of older) await fs.rm(logPath(dir, generation), { force: true });
    return { done: true, runs: runs.length, foldedLogs: older.length };
  } finally {
    await fs.rm(lock, { force: true });
  }
}
