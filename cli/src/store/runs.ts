import { promises as fs } from "node:fs";
import { join } from "node:path";
import { RecordingStore, type ListRunsOptions, type RunListing } from "@harnessx/recorder";

/** One line of `trace ls`: the recorder's listing plus the newest bundle exported for the run. */
export interface ListedRun extends RunListing {
  bundle: string | null;
}

/** A folder under `runs/` that is not a readable run, listed with status `invalid` and why. */
export interface InvalidRun {
  /** The folder's name. */
  runId: string;
  dir: string;
  status: "invalid";
  problem: string;
}

/** Bundles the recorder wrote under `<store>/incidents/` (named `<runId>-<UTC time>.tar`), newest per run. */
async function bundlesByRun(storeDir: string): Promise<Map<string, string>> {
  const dir = join(storeDir, "incidents");
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".tar")).sort();
  const out = new Map<string, string>();
  for (const name of names) {
    const match = /^(.*)-\d{4}-\d{2}-\d{2}T[\d-]+Z\.tar$/.exec(name);
    if (match) out.set(decodeURIComponent(match[1]!), join(dir, name));
  }
  return out;
}

/** Every run of a store, newest first, then the folders that are not readable runs (through `RecordingStore.listRunFolders`). */
export async function listRuns(
  storeDir: string,
  options: ListRunsOptions = {},
): Promise<{ runs: ListedRun[]; invalid: InvalidRun[]; notes: string[]; folders: number }> {
  const [folders, bundles] = await Promise.all([
    new RecordingStore(storeDir).listRunFolders(options),
    bundlesByRun(storeDir),
  ]);
  return {
    runs: folders.runs.map((run) => ({ ...run, bundle: bundles.get(run.runId) ?? null })),
    invalid: folders.invalid.map(({ name, dir, problem }) => ({ runId: name, dir, status: "invalid", problem })),
    notes: folders.notes,
    folders: folders.folders,
  };
}
