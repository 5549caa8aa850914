import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { CatalogEntry, CatalogRun } from "./catalog-entry.js";

/** A catalog entry of a run (not a deleted one, nor a folder that is not a run). */
export type RunEntry = CatalogEntry & { run: CatalogRun };
import { appendEntries } from "./publish-run.js";
import { readCatalog, type CatalogView } from "./read-catalog.js";
import { reconcileFolders } from "./reconcile-folders.js";

/** The catalog a reader lists from, level with the folders under `runs/`. */
export interface OpenedCatalog {
  /** The catalog as read, with the folders it did not name added to its parsed entries. */
  view: CatalogView;
  /** Folders the catalog names that are gone: left out of every listing. */
  gone: ReadonlySet<string>;
  /** Said once to the user: folders read into the catalog, lines of it skipped. */
  notes: string[];
}

/**
 * The store's catalog for reading, level with the folders under `runs/` (`reconcileFolders`).
 * What it had to read from folders it tells the catalog, so the next reader does not read them
 * again; a store that cannot be written (read-only) is read the same, only not healed. Undefined
 * when `root` is not a store (yet): nothing to list, and nothing written into it.
 */
export async function openCatalog(root: string): Promise<OpenedCatalog | undefined> {
  if (
    !(await fs.stat(join(root, "runs")).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    return undefined;
  const view = await readCatalog(root);
  const { added, gone } = await reconcileFolders(root, view);
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
  return { view, gone, notes };
}

/**
 * The runs of an opened catalog, newest first: the parsed entries (logs, folders just read)
 * merged with the snapshot's lines, which are read only as far as the caller goes. A folder
 * that is gone, and a snapshot line a newer entry overrides, are left out.
 */
export async function* newestRuns({ view, gone }: OpenedCatalog): AsyncGenerator<RunEntry> {
  const parsed = [...view.entries.values()]
    .filter((e): e is RunEntry => e.run !== null && !gone.has(e.folder))
    .sort((a, b) => b.run.startedAt - a.run.startedAt);
  const done = new Set<string>();
  let next = 0;
  const parsedFirst = function* (startedAt: number): Generator<RunEntry> {
    // Strictly newer: a parsed entry of the same run as the snapshot's line waits for that line.
    for (; next < parsed.length && parsed[next]!.run.startedAt > startedAt; next++) {
      const entry = parsed[next]!;
      if (done.has(entry.folder)) continue;
      done.add(entry.folder);
      yield entry;
    }
  };
  for await (const line of view.snapshotLines()) {
    yield* parsedFirst(line.run!.startedAt);
    if (gone.has(line.folder) || done.has(line.folder)) continue;
    const parsedEntry = view.entries.get(line.folder);
    if (parsedEntry && parsedEntry.writtenAt >= line.writtenAt) {
      // Its newer state is yielded in its place (a run deleted since, or no longer a run, is not).
      done.add(line.folder);
      if (parsedEntry.run) yield parsedEntry as RunEntry;
      continue;
    }
    done.add(line.folder);
    yield line as RunEntry;
  }
  yield* parsedFirst(Number.NEGATIVE_INFINITY);
}

/** Every folder the opened catalog names, runs and folders that are not runs, without reading the snapshot's lines. */
export function catalogFolders({ view, gone }: OpenedCatalog): string[] {
  const out: string[] = [];
  for (const folder of view.snapshotRuns) if (!view.entries.has(folder) && !gone.has(folder)) out.push(folder);
  for (const [folder, entry] of view.entries)
    if (!gone.has(folder) && (entry.run || entry.problem !== undefined)) out.push(folder);
  return out;
}
