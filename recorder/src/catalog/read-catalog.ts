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
  /** The generation the snapshot folded logs through. */
  through: number;
}

/** The catalog has no usable snapshot: it was never built (a store older than it), was deleted or is damaged. */
export interface MissingCatalog {
  missing: string;
}

/**
 * Reads the catalog: the snapshot, then every log present, oldest first. Of a folder's entries
 * the one written last wins (`writtenAt`), so a log a compaction already folded but had not yet
 * deleted changes nothing, and a line a late writer appended to it still counts.
 */
export async function readCatalog(root: string): Promise<CatalogView | MissingCatalog> {
  const dir = catalogDirOf(root);
  const counts: LineCounts = { tooLong: 0 };
  const entries = new Map<string, CatalogEntry>();
  let skipped = 0;
  let header: unknown;
  try {
    let first = true;
    for await (const line of catalogLines(join(dir, SNAPSHOT_FILE), counts)) {
      if (first) {
        header = parsed(line);
        first = false;
        if (!isHeader(header)) return { missing: `${join(dir, SNAPSHOT_FILE)} does not start with a catalog header` };
        continue;
      }
      const entry = catalogEntryFrom(parsed(line));
      if (entry) keepLatest(entries, entry);
      else skipped++;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { missing: `the store has no run catalog yet (${join(dir, SNAPSHOT_FILE)})` };
    return { missing: `${join(dir, SNAPSHOT_FILE)} cannot be read: ${(error as Error).message}` };
  }
  if (!isHeader(header)) return { missing: `${join(dir, SNAPSHOT_FILE)} is empty` };
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
  return { entries, skippedLines: skipped + counts.tooLong, through: header.through };
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
