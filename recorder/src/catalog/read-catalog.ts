import { join } from "node:path";
import { catalogDirOf, isRunFolderName } from "../format/layout.js";
import { catalogEntryFrom, type CatalogEntry } from "./catalog-entry.js";
import { CATALOG_FORMAT, logGenerations, logPath, SNAPSHOT_FILE } from "./catalog-files.js";
import { jsonValues } from "../format/json-values.js";
import { catalogLines, MAX_CATALOG_HEADER_BYTES, MAX_CATALOG_LINE_BYTES, type LineCounts } from "./catalog-lines.js";

/**
 * The snapshot's first line: what a reader needs before it reads a run's line. `runs` names the
 * run folders of the lines that follow, in their order (newest run first), so a reader knows
 * every folder the snapshot holds and can stop after the newest lines; `others` holds the
 * entries that are not runs (deleted runs, folders that are not runs), which are few.
 */
export interface CatalogHeader {
  format: typeof CATALOG_FORMAT;
  v: 1;
  /** The newest log generation folded into this snapshot. */
  through: number;
  /** The folder of each run line that follows, in order. */
  runs: string[];
  /** Folders that are not runs, with what is wrong with each. */
  others: CatalogEntry[];
}

/** The catalog as read: its logs parsed, its snapshot's run lines left to read in order. */
export interface CatalogView {
  /**
   * The parsed entries, latest per folder: the logs' (a log the snapshot folded is deleted
   * after it, and read again to no effect if a kill came between) and the snapshot's entries
   * that are not runs. Of a folder here and a snapshot line, the one written last wins.
   */
  entries: Map<string, CatalogEntry>;
  /** The run folders of the snapshot's lines, in order (newest run first). */
  snapshotRuns: readonly string[];
  /** The snapshot's run lines, newest run first, checked as they are read; one not an entry is skipped. */
  snapshotLines(): AsyncGenerator<CatalogEntry>;
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
 * Reads the catalog: the snapshot's header, then the logs it has not folded, oldest first; the
 * snapshot's run lines are read only when asked for (`snapshotLines`, or `allEntries`), so a
 * listing of the newest runs stops after a few. Of a folder's entries the one written last wins
 * (`writtenAt`), whichever file holds it.
 */
export async function readCatalog(root: string): Promise<CatalogView> {
  const dir = catalogDirOf(root);
  const path = join(dir, SNAPSHOT_FILE);
  const counts: LineCounts = { tooLong: 0 };
  const header = await readHeader(path, counts);
  const entries = new Map<string, CatalogEntry>();
  let skipped = 0;
  const through = "problem" in header ? 0 : header.through;
  if (!("problem" in header)) for (const entry of header.others) keepLatest(entries, entry);
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
  const view: CatalogView = {
    entries,
    snapshotRuns: "problem" in header ? [] : header.runs,
    async *snapshotLines() {
      if ("problem" in header) return;
      let first = true;
      for await (const line of catalogLines(path, counts, MAX_CATALOG_HEADER_BYTES)) {
        if (first) {
          first = false;
          continue;
        }
        const entry = catalogEntryFrom(parsed(line));
        if (entry?.run) yield entry;
        else view.skippedLines++;
      }
    },
    skippedLines: skipped + counts.tooLong,
    through,
    ...("problem" in header ? { snapshotProblem: header.problem } : {}),
  };
  return view;
}

/** Every entry of the catalog, latest per folder: the snapshot's lines read whole (for a compaction, a full listing). */
export async function allEntries(view: CatalogView): Promise<Map<string, CatalogEntry>> {
  const out = new Map<string, CatalogEntry>();
  for await (const entry of view.snapshotLines()) keepLatest(out, entry);
  for (const entry of view.entries.values()) keepLatest(out, entry);
  return out;
}

/** Keeps the entry written last; of two written in the same millisecond, the one read last. */
export function keepLatest(entries: Map<string, CatalogEntry>, entry: CatalogEntry): void {
  const kept = entries.get(entry.folder);
  if (!kept || entry.writtenAt >= kept.writtenAt) entries.set(entry.folder, entry);
}

async function readHeader(path: string, counts: LineCounts): Promise<CatalogHeader | { problem: string }> {
  try {
    for await (const line of catalogLines(path, counts, MAX_CATALOG_HEADER_BYTES)) {
      // Dense JSON (`[0,0,0,...]`) decodes to 15-35 times its size: a crafted header is refused uncounted.
      if (line.length > MAX_CATALOG_LINE_BYTES && tooDense(line))
        return {
          problem: `${path} starts with a header too dense to decode (over ${MAX_CATALOG_HEADER_VALUES} JSON values)`,
        };
      const header = parsed(line);
      return isHeader(header) ? header : { problem: `${path} does not start with a catalog header` };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { problem: `the run catalog has no snapshot yet (${path})` };
    return { problem: `${path} cannot be read: ${(error as Error).message}` };
  }
  return { problem: `${path} is empty` };
}

/** The most JSON values a snapshot's header may hold: two per run folder (its string and a comma), for two million runs. */
export const MAX_CATALOG_HEADER_VALUES = 4 * 1024 * 1024;

function tooDense(line: string): boolean {
  const bytes = Buffer.from(line);
  return jsonValues(bytes, 0, bytes.byteLength, MAX_CATALOG_HEADER_VALUES) > MAX_CATALOG_HEADER_VALUES;
}

function isHeader(value: unknown): value is CatalogHeader {
  const header = value as Partial<CatalogHeader> | undefined;
  return (
    typeof header === "object" &&
    header !== null &&
    header.format === CATALOG_FORMAT &&
    header.v === 1 &&
    Number.isSafeInteger(header.through) &&
    (header.through as number) >= 0 &&
    Array.isArray(header.runs) &&
    header.runs.every(isRunFolderName) &&
    Array.isArray(header.others) &&
    header.others.every((entry) => catalogEntryFrom(entry) !== undefined && entry.run === null)
  );
}

function parsed(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
