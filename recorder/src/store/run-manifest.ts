import { basename, dirname } from "node:path";
import { HarnessError } from "@harnessx/core";
import { readRegularFile, RefusedFileError } from "@harnessx/core/extension";
import type { RunManifest } from "../format/event.js";
import { runManifestPathOf } from "../format/layout.js";
import { parseChecked, RUN_MANIFEST_SCHEMA } from "../format/validate.js";
import { MAX_RUN_MANIFEST_BYTES } from "../format/read-limits.js";

/** The run has no directory (or no run.json) in the store. Check the id and the store with `RecordingStore.listRuns()`. */
export class RunNotFoundError extends HarnessError {
  constructor(
    /** The run id looked up (decoded from the folder name). */
    readonly runId: string,
    dir: string,
  ) {
    super(
      "run_not_found",
      `no recorded run ${JSON.stringify(runId)} under ${dir}/runs (see RecordingStore.listRuns())`,
    );
  }
}

/** A run folder whose run.json cannot be used: unreadable, not JSON, or not a run manifest. */
export class RunInvalidError extends HarnessError {
  constructor(
    /** The run's directory. */
    readonly runDir: string,
    /** What is wrong: why the file is unreadable, or the first field that breaks the schema. */
    readonly problem: string,
  ) {
    super("run_invalid", `${runManifestPathOf(runDir)} is not a valid run manifest: ${problem}`);
  }
}

/** A run's `run.json`, checked; `RunNotFoundError` when absent, `RunInvalidError` when unusable. */
export async function readRunManifest(runDir: string): Promise<RunManifest> {
  return (await readRunManifestFile(runDir)).manifest;
}

/** The checked manifest and the bytes it was read from (to copy them as they are). */
export async function readRunManifestFile(runDir: string): Promise<{ manifest: RunManifest; bytes: Buffer }> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(runManifestPathOf(runDir), { maxBytes: MAX_RUN_MANIFEST_BYTES, what: "run.json" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new RunNotFoundError(decodeURIComponentSafe(basename(runDir)), dirname(dirname(runDir)));
    // A FIFO would hang the reader and a huge file exhaust it: neither is a recorder's run.json.
    if (error instanceof RefusedFileError)
      throw new RunInvalidError(
        runDir,
        error.problem === "too_large"
          ? `larger than the ${MAX_RUN_MANIFEST_BYTES.toLocaleString("en-US")} bytes a reader takes`
          : "not a regular file (a FIFO, device or link)",
      );
    throw new RunInvalidError(runDir, `unreadable (${(error as Error).message})`);
  }
  const parsed = parseChecked<RunManifest>(bytes.toString("utf8"), RUN_MANIFEST_SCHEMA);
  if ("problem" in parsed) throw new RunInvalidError(runDir, parsed.problem);
  return { manifest: parsed.value, bytes };
}

// Run folders of ids that are not plain names are percent-encoded (see safeRunDirName).
function decodeURIComponentSafe(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * The run's events were deleted by its tail-retention policy (`retain`) after it ended: only its
 * summary (`run.json`: status, times, tokens, cost, counts, rollup) remains. `trace summary` and
 * `RecordingStore.getRun` still answer; anything that reads events cannot.
 */
export class RunReducedError extends HarnessError {
  constructor(
    /** The run's id. */
    readonly runId: string,
  ) {
    super(
      "run_reduced",
      `the events of run ${JSON.stringify(runId)} were deleted by tail retention (retain) when it ended; only its summary is kept (trace summary shows it)`,
    );
  }
}

/** Throws `RunReducedError` when the run kept only its summary: the one check before reading a run's events. */
export function assertEventsKept(run: Pick<RunManifest, "runId" | "detail">): void {
  if (run.detail === "summary") throw new RunReducedError(run.runId);
}
