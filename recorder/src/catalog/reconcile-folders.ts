import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { CatalogEntry } from "./catalog-entry.js";
import { keepLatest } from "./read-catalog.js";
import { scanFolder } from "./scan-runs.js";

/** What `reconcileFolders` changed in a view. */
export interface Reconciled {
  /** Folders the catalog did not know, read from their run.json and added. */
  added: CatalogEntry[];
  /** Entries whose folder is gone (deleted without the catalog being told), left out. */
  dropped: number;
}

/**
 * Brings a catalog view level with the folders under `runs/`, by their names alone (one
 * `readdir`, no file read for a folder it knows): a folder it does not know (a run recorded
 * before the catalog, one whose catalog line a kill cut off, one made by hand) is read from its
 * run.json and added, a folder that is not a readable run with its problem (and read again each
 * time, until it is one); an entry whose folder is gone is left out. `entries` is changed in place.
 */
export async function reconcileFolders(root: string, entries: Map<string, CatalogEntry>): Promise<Reconciled> {
  const names = await fs.readdir(join(root, "runs")).catch(() => [] as string[]);
  const present = new Set(names);
  const added: CatalogEntry[] = [];
  for (const folder of names) {
    const known = entries.get(folder);
    // A deleted run's folder made again (an id reused, or a deletion cut short) is read again, and
    // so is a folder that was not a readable run (few): one mended since is listed again.
    if (known?.run) continue;
    let entry = await scanFolder(root, folder);
    if (known?.problem !== undefined) {
      if (!entry.run) continue;
      // Mended by hand, its run.json may be older than the problem seen: it wins all the same.
      entry = { ...entry, writtenAt: Math.max(entry.writtenAt, known.writtenAt + 1) };
    }
    keepLatest(entries, entry);
    added.push(entry);
  }
  let dropped = 0;
  for (const [folder, entry] of entries)
    if (!present.has(folder)) {
      entries.delete(folder);
      if (entry.run || entry.problem !== undefined) dropped++;
    }
  return { added, dropped };
}
