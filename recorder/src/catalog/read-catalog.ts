import { join } from "node:path";
import { catalogDirOf } from "../format/layout.js";
import { catalogEntryFrom, type CatalogEntry } from "./catalog-entry.js";
import { CATALOG_FORMAT, logGenerations, logPath, SNAPSHOT_FILE } from "./catalog-files.js";
import { catalogLines, type LineCounts } from "./catalog-lines.js";

/** The catalog as read: the latest entry of each run folder. */
export interface CatalogView {
  /** The latest entry per run folder; a deleted run's is kept with `run: null` until compacted away. */
  entries: Map<string, CatalogEntry>;
  /** Lines that are not entries: torn by a kill (expected now and then), damaged or crafted. */
  skippedLines: number;
  /** The generation the snapshot folded logs through; 0 without a snapshot. */
  through: number;
  /**
   * Why the snapshot was not read: the store has none (recorded before the catalog, or never
   * compacted), or it is damaged. The logs then hold only the runs written since they began,
   * and a reader finds the others by their folders (`reconcileFolders`).
   */
  snapshotProblem?: string;
}

/**
 * Reads the catalog: the snapshot, then every log present, oldest first. Of a folder's entries
 * the one written last wins (`writtenAt`), so a log a compaction already folded but had not yet
 * deleted changes nothing, and a line a late writer appended to it still counts.
 */
export async function readCatalog(root: string): Promise<CatalogView> {
  const dir = catalogDirOf(root);
  const counts: LineCounts = { tooLong: 0 };
  const snapshot = await readSnapshot(join(dir, SNAPSHOT_FILE), counts);
  const { entries } = snapshot;
  let skipped = snapshot.skipped;
  for (const generation of logGenerations(dir)) {
    try {
      for await (const line of catalogLines(logPath(dir, generation), counts)) {
        const entry = catalogEntryFrom(parsed(line));
        if (entry) keepLatest(entries, entry);
        else skipped++;
      }
    } catch (error) {
      // A log a compaction deleted between the listing and the read has its entries in the
      // snapshot; one that cannot be read (a FIFO, a link, no permission) counts as skipped.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") skipped++;
    }
  }
  return {
    entries,
    skippedLines: skipped + counts.tooLong,
    through: snapshot.through,
    ...(snapshot.problem ? { snapshotProblem: snapshot.problem } : {}),
  };
}

async function readSnapshot(
  path: string,
  counts: LineCounts,
): Promise<{ entries: Map<string, CatalogEntry>; skipped: number; through: number; problem?: string }> {
  const entries = new Map<string, CatalogEntry>();
  let skipped = 0;
  let header: CatalogHeader | undefined;
  try {
    for await (const line of catalogLines(path, counts)) {
      if (!header) {
        const first = parsed(line);
        if (!isHeader(first))
          return {
            entries: new Map(),
            skipped: 0,
            through: 0,
            problem: `${path} does not start with a catalog header`,
          };
        header = first;
        continue;
      }
      const entry = catalogEntryFrom(parsed(line));
      if (entry) keepLatest(entries, entry);
      else skipped++;
    }
  } catch (error) {
    const problem =
      (error as NodeJS.ErrnoException).code === "ENOENT"
        ? `the run catalog has no snapshot yet (${path})`
        : `${path} cannot be read: ${(error as Error).message}`;
    return { entries: new Map(), skipped: 0, through: 0, problem };
  }
  if (!header) return { entries: new Map(), skipped: 0, through: 0, problem: `${path} is empty` };
  return { entries, skipped, through: header.through };
}

/** Keeps the entry written last; of two written in the same millisecond, the one read last. */
export function keepLatest(entries: Map<string, CatalogEntry>, entry: CatalogEntry): void {
  const kept = entries.get(entry.folder);
  if (!kept || entry.writtenAt >= kept.writtenAt) entries.set(entry.folder, entry);
}

/** The snapshot's first line. */
export interface CatalogHeader {
  format: typeof CATALOG_FORMAT;
  v: 1;
  /** The newest log generation folded into this snapshot. */
  through: number;
}

function isHeader(value: unknown): value is CatalogHeader {
  const header = value as Partial<CatalogHeader> | undefined;
  return (
    typeof header === "object" &&
    header !== null &&
    header.format === CATALOG_FORMAT &&
    header.v === 1 &&
    Number.isSafeInteger(header.through) &&
    (header.through as number) >= 0
  );
}

function parsed(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
