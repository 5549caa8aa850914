import { statSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { catalogDirOf } from "../format/layout.js";
import { logGenerations, logPath } from "./catalog-files.js";
import { compactCatalog } from "./compact-catalog.js";
import type { CompactCatalogResult } from "./compact-types.js";

/**
 * A log past this many bytes (about 1,500 runs' entries) is folded into the snapshot: a reader
 * parses every log line but stops early in the snapshot, so listing stays fast.
 */
export const COMPACT_LOG_BYTES = 1024 * 1024;

/** Stores this process is compacting now: one compaction per store at a time. */
const running = new Map<string, { worker: Worker | undefined; done: Promise<CompactCatalogResult | undefined> }>();

/** Starts a compaction when the store's newest log has passed `COMPACT_LOG_BYTES` (a `stat`, after each append). */
export function compactWhenLarge(root: string): void {
  if (running.has(root)) return;
  const dir = catalogDirOf(root);
  const newest = logGenerations(dir).at(-1);
  if (newest === undefined) return;
  const size = statSync(logPath(dir, newest), { throwIfNoEntry: false })?.size ?? 0;
  if (size >= COMPACT_LOG_BYTES) void compactInBackground(root, { detached: true });
}

/**
 * Compacts the store's catalog on a worker thread: parsing and writing a snapshot of a hundred
 * thousand runs takes a second or two of CPU, which must not stall the agent's event loop.
 * `detached`: the worker does not keep the process alive; one killed with it leaves the catalog
 * as the next compaction finds it (`compactCatalog` is crash-safe at every step). Resolves with
 * its result, or undefined when it failed (the catalog is then read as it was).
 */
export function compactInBackground(
  root: string,
  options: { detached?: boolean } = {},
): Promise<CompactCatalogResult | undefined> {
  const already = running.get(root);
  if (already) {
    // Someone waits for it now: it keeps the process alive until it ends.
    if (!options.detached) already.worker?.ref();
    return already.done;
  }
  // Run from its TypeScript sources (this repository's tests), the worker's file does not exist
  // as JavaScript: the compaction then runs on this thread, the same function.
  const worker = import.meta.url.endsWith(".ts")
    ? undefined
    : // The app's own flags (`--input-type`, loaders) are not the worker's: it loads only the recorder.
      new Worker(new URL("./compact-worker.js", import.meta.url), { workerData: { root }, execArgv: [] });
  if (options.detached) worker?.unref();
  const done = worker
    ? new Promise<CompactCatalogResult | undefined>((resolve) => {
        let result: CompactCatalogResult | undefined;
        worker.on("message", (message: CompactCatalogResult) => void (result = message));
        worker.on("error", () => undefined);
        worker.on("exit", () => resolve(result));
      })
    : compactCatalog(root).catch(() => undefined);
  running.set(root, { worker, done });
  void done.finally(() => running.delete(root));
  return done;
}
