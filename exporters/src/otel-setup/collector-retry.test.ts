// How the OTLP exporter treats a collector that pushes back: 429 and 503 are retried after the
// delay their Retry-After gives (longer than the exporter's own first back-off, at most 1.2 s, so a
// retry that ignored the header would come too early); a 400 is not retried and its spans are lost.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { countingBatchProcessor } from "./counting.js";
import { createOtlpExporter } from "../otlp/otlp-exporter.js";
import { startOtlpReceiver, type ReceiverAnswer } from "../test-support/otlp-receiver.js";
import { withOtelEnv } from "../test-support/otel-env.js";

/** Retry-After in seconds: two, where the exporter's first back-off without it is 0.8 to 1.2 s. */
const RETRY_AFTER_S = 2;
/** Timers may fire a millisecond early by `performance.now()`; the gap measured also includes the answer's round trip. */
const TIMER_SLACK_MS = 5;

/** Ends `spans` spans through a counted batch processor over the OTLP/HTTP exporter, flushes, returns the counts. */
async function exportTo(url: string, spans: number) {
  const processor = countingBatchProcessor(createOtlpExporter({ url, protocol: "http/protobuf", timeoutMs: 10_000 }));
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  const tracer = provider.getTracer("collector-retry");
  for (let i = 0; i < spans; i++) tracer.startSpan(`span ${i}`).end();
  const flushed = await processor.flushWithin(15_000);
  await provider.shutdown();
  return { flushed, counts: processor.counts };
}

describe("a collector that asks the exporter to wait", { concurrency: true }, () => {
  for (const status of [429, 503]) {
    test(`HTTP ${status} with Retry-After: ${RETRY_AFTER_S}: sent again no sooner than that, then delivered`, async () => {
      const answers: ReceiverAnswer[] = [{ status, retryAfter: String(RETRY_AFTER_S) }];
      const receiver = await startOtlpReceiver({ answers });
      try {
        const { flushed, counts } = await withOtelEnv({}, () => exportTo(receiver.url, 3));
        assert.deepEqual(flushed, { flushed: true, dropped: 0 });
        assert.deepEqual(
          receiver.received.map((r) => r.status),
          [status, 200],
        );
        const waited = receiver.received[1]!.atMs - receiver.received[0]!.atMs;
        assert.ok(
          waited >= RETRY_AFTER_S * 1000 - TIMER_SLACK_MS,
          `the retry came ${waited.toFixed(0)} ms after the ${status}`,
        );
        assert.deepEqual(receiver.bodies[1], receiver.bodies[0], "the same batch is sent again");
        assert.deepEqual(receiver.spans.map((s) => s.name).sort(), ["span 0", "span 1", "span 2"]);
        assert.equal(counts.exported, 3);
        assert.equal(counts.lost, 0);
      } finally {
        await receiver.close();
      }
    });
  }
});

describe("a collector that refuses the request", () => {
  test("HTTP 400 is not retried: one request, its spans counted lost", async () => {
    const receiver = await startOtlpReceiver({ answers: [{ status: 400 }] });
    try {
      const { flushed, counts } = await withOtelEnv({}, () => exportTo(receiver.url, 2));
      // The flush settled once the export answered: any retry would have been sent before that.
      assert.deepEqual(flushed, { flushed: true, dropped: 2 });
      assert.deepEqual(
        receiver.received.map((r) => r.status),
        [400],
      );
      assert.deepEqual([counts.exported, counts.lost], [0, 2]);
      assert.deepEqual(receiver.spans, []);
    } finally {
      await receiver.close();
    }
  });

  test("HTTP 429 whose Retry-After reaches past the export's time limit: given up at once, not waited for", async () => {
    const receiver = await startOtlpReceiver({ answers: [{ status: 429, retryAfter: "3600" }] });
    try {
      const { flushed, counts } = await withOtelEnv({}, () => exportTo(receiver.url, 1));
      assert.deepEqual(flushed, { flushed: true, dropped: 1 });
      assert.deepEqual(
        receiver.received.map((r) => r.status),
        [429],
      );
      assert.equal(counts.lost, 1);
    } finally {
      await receiver.close();
    }
  });
});
