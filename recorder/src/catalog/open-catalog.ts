import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { CatalogEntry } from "./catalog-entry.js";
import { appendEntries } from "./publish-run.js";
import { readCatalog } from "./read-catalog.js";
import { reconcileFolders } from "./reconcile-folders.js";

/** The catalog a reader lists from, and what it should tell its user about it. */
export interface OpenedCatalog {
  /** The latest entry per run folder, one per folder under `runs/`. */
  entries: Map<string, CatalogEntry>;
  /** Said once to the user: folders read into the catalog, lines of it skipped. */
  notes: string[];
}

/**
 * The store's catalog for reading, level with the folders under `runs/` (`reconcileFolders`).
 * What it had to read from folders it tells the catalog, so the next reader does not read them
 * again; a store that cannot be written (read-only) is read the same, only not healed.
 */
export async function openCatalog(root: string): Promise<OpenedCatalog> {
  // Not a store (yet): nothing to list, and nothing written into a folder that is not one.
  if (
    !(await fs.stat(join(root, "runs")).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    return { entries: new Map(), notes: [] };
  const view = await readCatalog(root);
  const { added } = await reconcileFolders(root, view.entries);
  const notes: string[] = [];
  if (added.length > 0) {
    let told = "";
    try {
      appendEntries(root, added);
    } catch (error) {
      told = ` (not written back: ${(error as Error).message})`;
    }
    const why = view.snapshotProblem ?? "folders its log did not name";
    notes.push(
      `the run catalog did not list ${added.length} run folder(s) (${why}): read from their run.json and added${told}`,
    );
  }
  if (view.skippedLines > 0)
    notes.push(
      `${view.skippedLines} line(s) of the run catalog could not be read (torn by a kill, or damaged); trace recover --all rebuilds it from the runs' folders`,
    );
  return { entries: view.entries, notes };
}
