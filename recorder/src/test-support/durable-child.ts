// A process that records a durable run until it hangs in its pay call, prints `started <runId>`
// once that is on disk, and waits to be killed (SIGKILL: a crash). Arguments: journal dir, store dir.
import { FlightRecorderExtension } from "../index.js";
import { crashInPay } from "./durable-runs.js";

const [journalDir, storeDir] = process.argv.slice(2) as [string, string];
const recorder = new FlightRecorderExtension({ dir: storeDir });
const runId = await crashInPay(journalDir, [recorder]);
await recorder.flush();
process.stdout.write(`started ${runId}\n`);
setInterval(() => {}, 1000);
