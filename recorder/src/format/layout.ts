import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { packageVersion } from "@harnessx/core/extension";

/** Default store root, relative to the working directory. */
export const DEFAULT_STORE_DIR = ".harnessx";

/** `<root>/runs/<runId>`: a run id becomes a directory name only when it is one plain segment. */
export function runDirOf(root: string, runId: string): string {
  return join(root, "runs", safeRunDirName(runId));
}

/** Run ids from core are plain; anything else is percent-encoded so it can never escape `runs/`. */
export function safeRunDirName(runId: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(runId)) return runId;
  return encodeURIComponent(runId).replace(/\./g, "%2E").replace(/\*/g, "%2A").slice(0, 200);
}

/**
 * True for a name that can only be one folder inside `runs/`: no separator, not `.` or `..`.
 * The run catalog names folders, and a catalog line is input like any other: a crafted
 * `../../elsewhere` must not send a reader out of the store.
 */
export function isRunFolderName(name: unknown): name is string {
  return (
    typeof name === "string" &&
    name.length > 0 &&
    name.length <= 255 &&
    name !== "." &&
    name !== ".." &&
    !/[/\\\0]/.test(name)
  );
}

/** `<root>/links/<parentRunId>/`: one empty file per child run (named as its run folder), written as the child starts. */
export function linksDirOf(root: string, parentRunId: string): string {
  return join(root, "links", safeRunDirName(parentRunId));
}

/** `<root>/catalog/`: the run catalog (`snapshot.ndjson` and the `log-NNNNNN.ndjson` appended since). */
export const catalogDirOf = (root: string): string => join(root, "catalog");

/** The store root of a run folder `<root>/runs/<name>`. */
export const storeRootOf = (runDir: string): string => dirname(dirname(runDir));

export const segmentsDirOf = (runDir: string): string => join(runDir, "segments");
export const runManifestPathOf = (runDir: string): string => join(runDir, "run.json");
export const lockPathOf = (runDir: string): string => join(runDir, "lock");

/** `000001.ndjson`: six digits sort lexically in write order. */
export function segmentName(index: number): string {
  return `${String(index).padStart(6, "0")}.ndjson`;
}

/** The segment index of a segment file name, or undefined for other files. */
export function segmentIndexOf(fileName: string): number | undefined {
  const match = /^(\d{6,})\.ndjson(?:\.zst)?$/.exec(fileName);
  return match ? Number(match[1]) : undefined;
}

let producer: { recorder: string; core: string; node: string } | undefined;

/** Versions written into run.json and bundle manifests. */
export function producerVersions(): { recorder: string; core: string; node: string } {
  if (producer) return producer;
  let core = "unknown";
  try {
    core = packageVersion(pathToFileURL(createRequire(import.meta.url).resolve("@harnessx/core")).href);
  } catch {
    // core resolved some other way (bundled): the version stays unknown rather than failing a run
  }
  producer = { recorder: packageVersion(import.meta.url), core, node: process.version };
  return producer;
}
