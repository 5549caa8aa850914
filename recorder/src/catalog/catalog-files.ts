import { readdirSync } from "node:fs";
import { join } from "node:path";

// The files of the run catalog in `<root>/catalog/`. Writers append to the newest log; a
// compaction starts a newer log, folds the older ones into the snapshot, then deletes them.

/** `snapshot.ndjson`: a header line, then one entry per run, as the last compaction left them. */
export const SNAPSHOT_FILE = "snapshot.ndjson";

/** Held (`O_EXCL`, the holder's pid inside) by the one process compacting or rebuilding the catalog. */
export const COMPACT_LOCK_FILE = "compact.lock";

/** `format` of the snapshot's header line. */
export const CATALOG_FORMAT = "harnessx.catalog";

/** `log-000001.ndjson`: six digits or more, so names sort in generation order. */
export const logName = (generation: number): string => `log-${String(generation).padStart(6, "0")}.ndjson`;

/** The generation of a log file's name, or undefined for other files. */
export function logGenerationOf(name: string): number | undefined {
  const match = /^log-(\d{6,})\.ndjson$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** The generations of the logs in `dir`, oldest first; none when the folder is absent. */
export function logGenerations(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return names
    .map(logGenerationOf)
    .filter((g): g is number => g !== undefined)
    .sort((a, b) => a - b);
}

/** The path of a log of `dir`. */
export const logPath = (dir: string, generation: number): string => join(dir, logName(generation));
