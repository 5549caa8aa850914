// Recording throughput (issue 4): the flight recorder against pino writing the same event
// objects to a file, side by side in one run. Redaction is on for the recorder (default rules).
// Run: npx tsx test/bench/recorder-throughput.bench.ts [events=200000]
import { join } from "node:path";
import { once } from "node:events";
import pino from "pino";
import { bytesUnder, emitEvents, fmt, recordingHarness, tempStore, toolEvent } from "./support/recording.js";

const events = Number(process.argv[2] ?? 200_000);
const BATCH = 1000;

async function recorderRate(redact: boolean): Promise<{ rate: number; bytes: number }> {
  const store = tempStore("hx-bench-rec-");
  try {
    const { agent, recorder, runId } = recordingHarness({ dir: store.dir, segmentMaxBytes: 16 * 1024 * 1024 }, redact ? {} : { redact: false });
    const started = performance.now();
    await emitEvents(agent, runId, events, BATCH);
    await recorder.flush();
    const seconds = (performance.now() - started) / 1000;
    await agent.close();
    if (recorder.failed) throw recorder.failed;
    return { rate: events / seconds, bytes: bytesUnder(store.dir) };
  } finally {
    store.cleanup();
  }
}

async function pinoRate(): Promise<{ rate: number; bytes: number }> {
  const store = tempStore("hx-bench-pino-");
  try {
    const destination = pino.destination({ dest: join(store.dir, "events.log"), minLength: 8 * 1024, sync: false });
    await once(destination, "ready");
    const logger = pino({ base: undefined }, destination);
    const started = performance.now();
    for (let done = 0; done < events; ) {
      const end = Math.min(events, done + BATCH);
      for (; done < end; done++) logger.info(toolEvent(done), "tool_call_end");
      await new Promise((resolve) => setImmediate(resolve));
    }
    destination.flushSync();
    const seconds = (performance.now() - started) / 1000;
    destination.end();
    await once(destination, "close");
    return { rate: events / seconds, bytes: bytesUnder(store.dir) };
  } finally {
    store.cleanup();
  }
}

// Warm up both paths once (JIT), then measure alternately.
await recorderRate(true);
await pinoRate();
const pinoResult = await pinoRate();
const redacted = await recorderRate(true);
const plain = await recorderRate(false);

console.log(`recorder throughput, ${fmt(events)} tool-call events of ~400 bytes`);
console.log(`  pino (file, async, 8 KiB buffer)     ${fmt(pinoResult.rate).padStart(10)} events/s   ${fmt(pinoResult.bytes / 1e6, 1)} MB written (plain)`);
console.log(`  recorder, redaction on (default)      ${fmt(redacted.rate).padStart(10)} events/s   ${fmt(redacted.bytes / 1e6, 1)} MB on disk (zstd-sealed)`);
console.log(`  recorder, redaction off               ${fmt(plain.rate).padStart(10)} events/s`);
console.log(`  ratio recorder(redacted) / pino       ${fmt(redacted.rate / pinoResult.rate, 2)}`);
console.log(`  ratio recorder(plain) / pino          ${fmt(plain.rate / pinoResult.rate, 2)}`);
