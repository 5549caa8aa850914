import { Worker } from "node:worker_threads";
import { compactRuns, type CompactRunsResult } from "./compact-runs.js";
import { committedParts, listPartFiles } from "./part-files.js";

/** When the recording process compacts its store's runs into partitions (`FlightRecorderOptions.compact`). */
export interface RecorderCompactOptions {
  /** Compact once this many runs ended in this process since the last compaction (default 1,000). */
  afterRuns?: number;
  /**
   * And only when the store's last compaction (by any process) is at least this old, in ms
   * (default an hour): at most 24 compactions, so 24 files per table, a day.
   */
  minIntervalMs?: number;
  /**
   * Most runs one background compaction takes, newest first (default 2,000): its memory, in the
   * agent's process, grows with them (about 1.3 GB for 10,000 runs of 100 events). A backlog
   * older than that waits for the next ones, or for `trace compact`.
   */
  maxRuns?: number;
}

/** `RecorderCompactOptions` with defaults applied. */
export type ResolvedCompactOptions = Required<RecorderCompactOptions>;

/** Runs ended per store in this process since its last compaction started. */
const endedSince = new Map<string, number>();
/** The compaction of each store this process is running (or deciding to run), and its worker once started. */
const running = new Map<
  string,
  { done: Promise<CompactRunsResult | undefined>; worker?: Worker; waitedFor: boolean }
>();

/**
 * Counts a run that ended, and starts a compaction of its store on a worker thread once enough
 * have (`afterRuns`) and the store's last one is old enough (`minIntervalMs`): off the agent's
 * event loop, and crash-safe if the process dies meanwhile.
 */
export function noteRunEnded(root: string, options: ResolvedCompactOptions | undefined): void {
  if (!options) return;
  const count = (endedSince.get(root) ?? 0) + 1;
  endedSince.set(root, count);
  if (count < options.afterRuns || running.has(root)) return;
  const state: { done: Promise<CompactRunsResult | undefined>; worker?: Worker; waitedFor: boolean } = {
    done: Promise.resolve(undefined),
    waitedFor: false,
  };
  state.done = (async () => {
    const last = await lastCompactedAt(root);
    if (Date.now() - last < options.minIntervalMs) return undefined;
    endedSince.set(root, 0);
    return compactRunsInBackground(root, options.maxRuns, state);
  })().catch(() => undefined);
  running.set(root, state);
  void state.done.finally(() => running.delete(root));
}

/** The compaction of the store running in this process, if any: `close()` waits for it. */
export function runningCompaction(root: string): Promise<CompactRunsResult | undefined> | undefined {
  const state = running.get(root);
  if (!state) return undefined;
  // Someone waits for it now: its worker keeps the process alive until it ends.
  state.waitedFor = true;
  state.worker?.ref();
  return state.done;
}

/** When the store's newest committed compaction ran (from its files' stamps), or 0. */
async function lastCompactedAt(root: string): Promise<number> {
  let newest = 0;
  for (const file of committedParts((await listPartFiles(root)).files)) {
    const stamp = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(file.stamp);
    if (stamp)
      newest = Math.max(newest, Date.parse(`${stamp[1]}-${stamp[2]}-${stamp[3]}T${stamp[4]}:${stamp[5]}:${stamp[6]}Z`));
  }
  return newest;
}

/**
 * `compactRuns` on a worker thread (DuckDB's work is native, but mapping spans is JavaScript and
 * would stall the agent's loop); from TypeScript sources (this repository's tests), on this thread.
 */
function compactRunsInBackground(
  root: string,
  maxRuns: number,
  state: { worker?: Worker; waitedFor: boolean },
): Promise<CompactRunsResult | undefined> {
  if (import.meta.url.endsWith(".ts")) return compactRuns(root, { maxRuns }).catch(() => undefined);
  // The app's own flags (`--input-type`, loaders) are not the worker's: it loads only the recorder.
  const worker = new Worker(new URL("./compact-worker.js", import.meta.url), {
    workerData: { root, maxRuns },
    execArgv: [],
  });
  // Nobody waiting: it does not keep the process alive (one killed with it leaves what the next compaction cleans).
  if (!state.waitedFor) worker.unref();
  state.worker = worker;
  return new Promise((resolve) => {
    let result: CompactRunsResult | undefined;
    worker.on("message", (message: CompactRunsResult) => void (result = message));
    worker.on("error", () => undefined);
    worker.on("exit", () => resolve(result));
  });
}
