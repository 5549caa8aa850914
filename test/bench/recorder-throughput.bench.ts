// Recording throughput (issue 4): the flight recorder against pino writing the same event
// objects to a file, side by side in one run. Redaction is on for the recorder (default rules).
// Run: npx tsx test/bench/recorder-throughput.bench.ts
import { join } from "node:path";
import { once } from "node:events";
import pino from "pino";
import { bytesUnder, emitEvents, recordingHarness, tempStore, toolEvent } from "./support/recording.js";
import { report, sized } from "./support/report.js";

const events = sized(200_000, 5_000);
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

const MB = 1e6;
report("recorder-throughput", [
  {
    measure: `recorder events/s, ${events.toLocaleString("en-US")} tool-call events (~400 B), redaction on`,
    unit: "events/s",
    harnessx: redacted.rate,
    anchor: pinoResult.rate,
    anchorName: "pino, same events",
    aim: { on: "ratio", op: ">=", target: 1 },
    note: `${(redacted.bytes / MB).toFixed(1)} MB on disk sealed vs pino ${(pinoResult.bytes / MB).toFixed(1)} MB plain`,
  },
  { measure: "recorder events/s, redaction off", unit: "events/s", harnessx: plain.rate, anchor: pinoResult.rate, anchorName: "pino, same events" },
]);
