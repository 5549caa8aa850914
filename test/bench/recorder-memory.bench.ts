// Recorder memory (issue 4): heap growth while recording 1,000,000 events (target < 64 MB).
// Events go through the real hook bus, queue, writer and sealing; the heap is sampled after
// every batch and measured after a full GC at the end.
// Run: npx tsx test/bench/recorder-memory.bench.ts
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { emitEvents, recordingHarness, tempStore } from "./support/recording.js";
import { report, sized } from "./support/report.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const events = sized(1_000_000, 20_000);
const MB = 1024 * 1024;

const store = tempStore("hx-bench-mem-");
try {
  const { agent, recorder, runId } = recordingHarness({ dir: store.dir });
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const started = performance.now();
  await emitEvents(agent, runId, events, 1000, 0, (done) => {
    if (done % 20_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  });
  await recorder.flush();
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  gc();
  const after = process.memoryUsage().heapUsed;
  await agent.close();
  if (recorder.failed) throw recorder.failed;
  report("recorder-memory", [
    {
      measure: `recorder: retained heap growth after ${events.toLocaleString("en-US")} events`,
      unit: "MB",
      harnessx: (after - base) / MB,
      aim: { on: "value", op: "<", target: 64 },
    },
    {
      measure: `recorder: peak heap growth while recording (sampled, garbage included)`,
      unit: "MB",
      harnessx: (peak - base) / MB,
      note: `${Math.round(events / seconds).toLocaleString("en-US")} events/s`,
    },
  ]);
} finally {
  store.cleanup();
}
