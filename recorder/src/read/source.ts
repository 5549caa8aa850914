import { promises as fs } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { OpenedBundle } from "../bundle/open-bundle.js";
import { catalogFolders, openCatalog } from "../catalog/open-catalog.js";
import { DEFAULT_STORE_DIR, runDirOf } from "../format/layout.js";
import { readRunManifest } from "../store/run-manifest.js";
import { RecordingSourceError } from "./errors.js";

/**
 * Where a recording is read from:
 * - a string: a bundle file, a run directory, or a run id (or a unique prefix of one) in
 *   `options.storeDir`;
 * - `{ storeDir, runId }`: a run id, or a unique prefix of one, in a store;
 * - `{ runDir }`: a run directory (`<store>/runs/<runId>`);
 * - `{ bundle }`: a bundle file, or a bundle already opened with `openBundle`.
 */
export type RecordingSource =
  | string
  | {
      /** The store to look in (relative to `cwd`). */
      storeDir: string;
      /** A run id, or a prefix only one run id of the store starts with. */
      runId: string;
    }
  | {
      /** A run directory, `<store>/runs/<runId>` (relative to `cwd`). */
      runDir: string;
    }
  | {
      /** A bundle file (relative to `cwd`), or a bundle already opened. */
      bundle: string | OpenedBundle;
    };

/** A source resolved: a run of a store, or a bundle file. */
export type ResolvedSource =
  | {
      /** A run of a store. */
      kind: "run";
      /** The store, as an absolute path (for a run directory outside a store, its parent). */
      storeDir: string;
      /** The run's directory. */
      runDir: string;
      /** The run's full id (a prefix given is resolved to it). */
      runId: string;
    }
  | {
      /** An incident bundle. */
      kind: "bundle";
      /** The bundle file, as an absolute path. */
      path: string;
    };

/** Options of `resolveRecordingSource` (and `openRecording`): how a string source is resolved. */
export interface ResolveSourceOptions {
  /** The store a run id is looked up in. Default `.harnessx`. */
  storeDir?: string;
  /** What relative paths are resolved against. Default the process's working directory. */
  cwd?: string;
}

const statOf = (path: string) => fs.stat(path).catch(() => undefined);
const isDir = async (path: string) => (await statOf(path))?.isDirectory() === true;

/** One folder under a store's `runs/`: the run id it names (percent-encoded ids decoded back) and its path. */
export interface RunFolder {
  /** The run id the folder names. */
  runId: string;
  /** Path of the folder. */
  dir: string;
}

/** Checks that `storeDir` is a recording store (a directory with `runs/`); `RecordingSourceError` (`no_store`, `not_a_store`) when not. */
export async function checkStore(storeDir: string): Promise<void> {
  const stat = await statOf(storeDir);
  if (!stat) throw new RecordingSourceError("no_store", storeDir, `no recording store at ${storeDir}`, storeDir);
  if (!stat.isDirectory() || !(await isDir(join(storeDir, "runs")))) {
    throw new RecordingSourceError(
      "not_a_store",
      storeDir,
      `${storeDir} is not a harnessx recording store (it has no runs/ folder)`,
      storeDir,
    );
  }
}

/** Every folder under a store's `runs/`, readable run or not (`RecordingStore.listRunFolders` tells them apart). */
export async function runFolders(storeDir: string): Promise<RunFolder[]> {
  const names = await fs.readdir(join(storeDir, "runs")).catch(() => [] as string[]);
  return names.map((name) => ({ runId: decodedFolder(name), dir: join(storeDir, "runs", name) }));
}

/**
 * The store's runs as its catalog lists them (rebuilt from the folders first when it has none),
 * folders a rebuild found not to be runs included: what run references, `trace query --all` and
 * dataset exports go through, without listing `runs/`. `runFolders` lists the folders themselves.
 */
export async function catalogedRunFolders(storeDir: string): Promise<RunFolder[]> {
  const opened = await openCatalog(storeDir);
  if (!opened) return [];
  return catalogFolders(opened).map((folder) => ({
    runId: opened.view.entries.get(folder)?.run?.runId ?? decodedFolder(folder),
    dir: join(storeDir, "runs", folder),
  }));
}

function decodedFolder(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** The store a run directory belongs to (`<store>/runs/<id>`; a run directory elsewhere stands for its own parent). */
const storeOf = (runDir: string): string =>
  basename(dirname(runDir)) === "runs" ? resolve(runDir, "..", "..") : dirname(runDir);

async function runAt(runDir: string): Promise<ResolvedSource> {
  const { runId } = await readRunManifest(runDir);
  return { kind: "run", storeDir: storeOf(runDir), runDir, runId };
}

/** A run of the store by its id, or by a prefix that only one run id starts with. */
async function findRun(storeDir: string, text: string): Promise<ResolvedSource> {
  await checkStore(storeDir);
  // An exact id is its folder: found without the catalog, even for a run it does not know yet.
  const folder = runDirOf(storeDir, text);
  if (await isDir(folder)) return { kind: "run", storeDir, runDir: folder, runId: text };
  const runs = await catalogedRunFolders(storeDir);
  const exact = runs.find((r) => r.runId === text);
  const matches = exact ? [exact] : runs.filter((r) => r.runId.startsWith(text));
  if (matches.length === 0)
    throw new RecordingSourceError("no_match", text, `no run matches ${JSON.stringify(text)} in ${storeDir}`, storeDir);
  if (matches.length > 1) {
    const ids = matches.map((m) => m.runId).sort();
    const more = ids.length > 5 ? ` and ${ids.length - 5} more` : "";
    throw new RecordingSourceError(
      "ambiguous",
      text,
      `run id prefix ${JSON.stringify(text)} is ambiguous: it matches ${ids.length} runs (${ids.slice(0, 5).join(", ")}${more}); give more characters`,
      storeDir,
      ids,
    );
  }
  const [match] = matches as [(typeof matches)[number]];
  return { kind: "run", storeDir, runDir: match.dir, runId: match.runId };
}

/**
 * Resolves a source without reading the recording: an existing file is a bundle, a directory
 * with `run.json` a run directory, anything else without a slash a run id or unique prefix in
 * `options.storeDir`. Failures are `RecordingSourceError`s (see `RecordingSourceProblem`), or
 * `RunNotFoundError` / `RunInvalidError` for a run directory whose run.json is missing or unusable.
 */
export async function resolveRecordingSource(
  source: RecordingSource,
  options: ResolveSourceOptions = {},
): Promise<ResolvedSource> {
  const cwd = options.cwd ?? process.cwd();
  if (typeof source === "object") {
    if ("bundle" in source)
      return {
        kind: "bundle",
        path: typeof source.bundle === "string" ? resolve(cwd, source.bundle) : source.bundle.path,
      };
    if ("runDir" in source) return runAt(resolve(cwd, source.runDir));
    if (source.runId === "") throw new RecordingSourceError("empty", "", "the run id is empty");
    return findRun(resolve(cwd, source.storeDir), source.runId);
  }
  if (source.trim() === "") throw new RecordingSourceError("empty", source, "the recording source is empty");
  const path = resolve(cwd, source);
  const stat = await statOf(path);
  if (stat?.isFile()) return { kind: "bundle", path };
  if (stat?.isDirectory()) {
    if (await statOf(join(path, "run.json"))) return runAt(path);
    if (await isDir(join(path, "runs")))
      throw new RecordingSourceError(
        "store_not_run",
        source,
        `${source} is a recording store, not a run: name a run in it`,
        path,
      );
    throw new RecordingSourceError(
      "not_a_run",
      source,
      `${source} is a directory but not a recorded run (no run.json)`,
    );
  }
  // A FIFO, socket or device: reading it could block or never end.
  if (stat)
    throw new RecordingSourceError(
      "not_a_run",
      source,
      `${source} is neither a bundle file nor a run directory (a FIFO, socket or device): refused unread`,
    );
  if (/[/\\]/.test(source) || /\.(tar|bundle)$/i.test(source))
    throw new RecordingSourceError("missing_path", source, `no such file or directory: ${source}`);
  return findRun(resolve(cwd, options.storeDir ?? DEFAULT_STORE_DIR), source);
}
