// Recording throughput (issue 4): the flight recorder against pino writing the same event
// objects to a file, side by side in one process. Redaction is on for the recorder (default rules).
// Run: npx tsx test/bench/recorder-throughput.bench.ts
import { join } from "node:path";
import { once } from "node:events";
import pino from "pino";
import { Redactor } from "@harnessx/core/extension";
import { bytesUnder, emitEvents, recordingHarness, tempStore, toolEvent } from "./support/recording.js";
import { median, report, sized } from "./support/report.js";

const events = sized(200_000, 5_000);
const BATCH = 1000;

async function recorderRate(redact: boolean): Promise<{ rate: number; bytes: number }> {
  const store = tempStore("hx-bench-rec-");
  try {
    const { agent, recorder, runId } = recordingHarness(
      { dir: store.dir, segmentMaxBytes: 16 * 1024 * 1024 },
      redact ? {} : { redact: false },
    );
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

/**
 * What redaction at the source adds to any logger, measured alone: each string of the same
 * events through core's redactor once (a fresh one, so each distinct text is scanned once, as
 * the recorder's memo does). Its seconds added to pino's give the rate pino would reach if it
 * had to redact content.
 */
function redactionSeconds(): number {
  const redactor = new Redactor();
  const visit = (value: unknown): void => {
    if (typeof value === "string") redactor.redactText(value);
    else if (value && typeof value === "object") for (const item of Object.values(value)) visit(item);
  };
  const started = performance.now();
  for (let i = 0; i < events; i++) visit(toolEvent(i));
  return (performance.now() - started) / 1000;
}

// Warm up both paths once (JIT), then measure alternately, three rounds, and take the medians:
// one 200k-event pass depends on where the collector happens to be.
await recorderRate(true);
await pinoRate();
redactionSeconds();
const rounds = { pino: [] as number[], redacted: [] as number[], plain: [] as number[], redacting: [] as number[] };
let sealedBytes = 0;
let pinoBytes = 0;
for (let round = 0; round < sized(3, 1); round++) {
  const pinoRun = await pinoRate();
  const redactedRun = await recorderRate(true);
  rounds.pino.push(pinoRun.rate);
  rounds.redacted.push(redactedRun.rate);
  rounds.plain.push((await recorderRate(false)).rate);
  rounds.redacting.push(redactionSeconds());
  [sealedBytes, pinoBytes] = [redactedRun.bytes, pinoRun.bytes];
}
const pinoResult = { rate: median(rounds.pino), bytes: pinoBytes };
const redacted = { rate: median(rounds.redacted), bytes: sealedBytes };
const plain = { rate: median(rounds.plain) };
const pinoRedacting = events / (events / pinoResult.rate + median(rounds.redacting));

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
  {
    measure: "recorder events/s, redaction off",
    unit: "events/s",
    harnessx: plain.rate,
    anchor: pinoResult.rate,
    anchorName: "pino, same events",
  },
  {
    measure: "floor: pino + redacting the same events' strings (core's redactor, each distinct text once)",
    unit: "events/s",
    harnessx: pinoRedacting,
    anchor: pinoResult.rate,
    anchorName: "pino, same events",
    note: "the most any logger that redacts content at the source reaches here",
  },
]);
