import { promises as fs } from "node:fs";
import { join } from "node:path";
import { runManifestPathOf } from "../format/layout.js";
import { readRunManifest, RunNotFoundError } from "../store/run-manifest.js";
import { catalogRunOf, type CatalogEntry } from "./catalog-entry.js";
import { keepLatest } from "./read-catalog.js";

/**
 * The catalog as the runs' folders say it, for a rebuild: one entry per folder (`scanFolder`).
 */
export async function scanRuns(root: string): Promise<Map<string, CatalogEntry>> {
  const entries = new Map<string, CatalogEntry>();
  const names = await fs.readdir(join(root, "runs")).catch(() => [] as string[]);
  for (const folder of names.sort()) keepLatest(entries, await scanFolder(root, folder));
  return entries;
}

/**
 * A folder's entry from its run.json, dated by that file's last write (so a later line of a log
 * wins over it); for a folder that is not a readable run, what is wrong with it, dated before it
 * was looked at (so a run.json its recorder writes after wins).
 */
export async function scanFolder(root: string, folder: string): Promise<CatalogEntry> {
  const runDir = join(root, "runs", folder);
  const checkedAt = Date.now();
  try {
    const manifest = await readRunManifest(runDir);
    const stat = await fs.stat(runManifestPathOf(runDir));
    return { folder, writtenAt: stat.mtimeMs, run: catalogRunOf(manifest) };
  } catch (error) {
    const problem = error instanceof RunNotFoundError ? `${runDir} has no run.json` : (error as Error).message;
    return { folder, writtenAt: checkedAt, run: null, problem };
  }
}
