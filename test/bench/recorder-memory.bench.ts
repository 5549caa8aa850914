// Recorder memory (issue 4): heap growth while recording 1,000,000 events (target < 64 MB).
// Events go through the real hook bus, queue, writer and sealing; the heap is sampled after
// every batch and measured after a full GC at the end.
// Run: npx tsx test/bench/recorder-memory.bench.ts [events=1000000]
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { bytesUnder, emitEvents, fmt, recordingHarness, tempStore } from "./support/recording.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const events = Number(process.argv[2] ?? 1_000_000);
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
  console.log(`recorder memory: ${fmt(events)} events in ${fmt(seconds, 1)} s (${fmt(events / seconds)} events/s)`);
  console.log(`  heap before            ${fmt(base / MB, 1)} MB`);
  console.log(`  peak heap growth       ${fmt((peak - base) / MB, 1)} MB (sampled every 20,000 events; includes garbage not yet collected)`);
  console.log(`  retained growth (GC)   ${fmt((after - base) / MB, 1)} MB   (target < 64 MB)`);
  console.log(`  store on disk          ${fmt(bytesUnder(store.dir) / MB, 1)} MB`);
} finally {
  store.cleanup();
}
