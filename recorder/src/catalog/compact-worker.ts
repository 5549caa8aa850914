// The worker thread `compactInBackground` starts: one compaction of one store's catalog, its
// result posted back. Built to dist/ beside background-compaction.js, which names it by URL.
import { parentPort, workerData } from "node:worker_threads";
import { compactCatalog } from "./compact-catalog.js";

const { root } = workerData as { root: string };
parentPort?.postMessage(await compactCatalog(root));
