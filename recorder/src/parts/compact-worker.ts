// The worker thread `compactRunsInBackground` starts: one compaction of one store's runs, its
// result posted back. Built to dist/ beside background-parts.js, which names it by URL.
import { parentPort, workerData } from "node:worker_threads";
import { compactRuns } from "./compact-runs.js";

const { root, maxRuns } = workerData as { root: string; maxRuns: number };
parentPort?.postMessage(await compactRuns(root, { maxRuns }));
