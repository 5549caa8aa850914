import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { DATASET_MARKER, DATASET_TABLES, type DatasetTable } from "../layout.js";

/** A file of a local dataset folder, by its dataset-relative path (also its key under the prefix). */
export interface LocalDatasetFile {
  /** `runs/date=2026-12-03/<runId>.parquet`, `objects/ab/<sha256>.zst`, `harnessx-dataset.json`. */
  readonly path: string;
  readonly bytes: number;
  readonly mtimeMs: number;
  /** The run a table file belongs to; undefined for objects and the marker. */
  readonly runId?: string;
  /** The `date=` partition of a table file. */
  readonly date?: string;
}

// The contract's names only: temp files of a write in progress and anything foreign never match.
const TABLE_FILE =
  /^(runs|events|spans|artifacts)\/date=(\d{4}-\d{2}-\d{2})\/([A-Za-z0-9_%-][A-Za-z0-9._%-]*)\.parquet$/;
const OBJECT_FILE = /^objects\/([0-9a-f]{2})\/\1[0-9a-f]{62}\.zst$/;

/** Parses a dataset-relative path; undefined when the contract has no such file. */
export function datasetFileOf(path: string): Pick<LocalDatasetFile, "path" | "runId" | "date"> | undefined {
  if (path === DATASET_MARKER || OBJECT_FILE.test(path)) return { path };
  const table = TABLE_FILE.exec(path);
  return table ? { path, date: table[2], runId: table[3] } : undefined;
}

async function walk(root: string, dir: string, out: LocalDatasetFile[]): Promise<void> {
  const entries = await readdir(join(root, dir), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await walk(root, path, out);
    else if (entry.isFile()) {
      const parsed = datasetFileOf(path);
      if (!parsed) continue;
      const info = await stat(join(root, path));
      out.push({ ...parsed, bytes: info.size, mtimeMs: info.mtimeMs });
    }
  }
}

/**
 * A local dataset's files in upload order: the marker, then every artifact object, then each run's
 * tables in `DATASET_TABLES` order, its `runs` row last (a reader that sees the run finds the rest). A run whose `runs` row is not written yet (an export in
 * progress) is left out whole.
 */
export async function datasetFiles(datasetDir: string): Promise<LocalDatasetFile[]> {
  const all: LocalDatasetFile[] = [];
  await walk(datasetDir, "", all);
  const marker = all.filter((f) => f.path === DATASET_MARKER);
  const objects = all.filter((f) => f.path.startsWith("objects/")).sort((a, b) => a.path.localeCompare(b.path));
  const byRun = new Map<string, LocalDatasetFile[]>();
  for (const file of all) if (file.runId !== undefined) byRun.set(file.runId, [...(byRun.get(file.runId) ?? []), file]);
  const tableRank = (f: LocalDatasetFile): number =>
    DATASET_TABLES.indexOf(f.path.slice(0, f.path.indexOf("/")) as DatasetTable);
  const runs = [...byRun.entries()]
    .filter(([, files]) => files.some((f) => f.path.startsWith("runs/")))
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([, files]) => files.sort((a, b) => tableRank(a) - tableRank(b)));
  return [...marker, ...objects, ...runs];
}
