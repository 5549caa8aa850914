import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { CatalogEntry } from "./catalog-entry.js";
import { keepLatest } from "./read-catalog.js";
import { scanFolder } from "./scan-runs.js";

/** What `reconcileFolders` found. */
export interface Reconciled {
  /** Folders the catalog did not name, read from their run.json (or found not to be runs) and added. */
  added: CatalogEntry[];
  /** Folders the catalog names that are gone (deleted without the catalog being told). */
  gone: Set<string>;
}

/**
 * Brings a catalog level with the folders under `runs/`, by their names alone (one `readdir`,
 * no file read for a folder it names as a run): a folder it does not name (a run recorded before
 * the catalog, one whose catalog line a kill cut off, one made by hand) is read from its run.json
 * and added to `entries`, a folder that is not a readable run with its problem (and read again
 * each time, until it is one); a folder it names that is gone is reported, to be left out.
 */
export async function reconcileFolders(
  root: string,
  catalog: { entries: Map<string, CatalogEntry>; snapshotRuns: readonly string[] },
): Promise<Reconciled> {
  const { entries } = catalog;
  const names = await fs.readdir(join(root, "runs")).catch(() => [] as string[]);
  const present = new Set(names);
  const inSnapshot = new Set(catalog.snapshotRuns);
  const added: CatalogEntry[] = [];
  for (const folder of names) {
    const known = entries.get(folder);
    if (known ? known.run : inSnapshot.has(folder)) continue;
    // A deleted run's folder made again (an id reused, or a deletion cut short) is read again, and
    // so is a folder that was not a readable run (few): one mended since is listed again.
    let entry = await scanFolder(root, folder);
    if (known?.problem !== undefined) {
      if (!entry.run) continue;
      // Mended by hand, its run.json may be older than the problem seen: it wins all the same.
      entry = { ...entry, writtenAt: Math.max(entry.writtenAt, known.writtenAt + 1) };
    }
    keepLatest(entries, entry);
    added.push(entry);
  }
  const gone = new Set<string>();
  for (const folder of inSnapshot) if (!present.has(folder)) gone.add(folder);
  for (const [folder, entry] of entries)
    if (!present.has(folder) && (entry.run || entry.problem !== undefined)) gone.add(folder);
  return { added, gone };
}
