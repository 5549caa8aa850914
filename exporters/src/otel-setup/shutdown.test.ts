import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HookEvent, type ErrorData } from "@harnessx/core/extension";
import { OpenTelemetryExtension } from "../otel/extension.js";
import { setupTelemetry, type Telemetry } from "./setup.js";
import { refusedUrl, startOtlpReceiver, type OtlpReceiver } from "../test-support/otlp-receiver.js";
import { scenarioAgent } from "../test-support/scenario.js";

/** Scheduling slack on a loaded machine; the bounds under test are far larger. */
const GRACE_MS = 1500;
const SPANS_PER_RUN = 9;

function endSpans(telemetry: Telemetry, n: number): void {
  for (let i = 0; i < n; i++) telemetry.tracer.startSpan(`span ${i}`).end();
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** Waits, without a timer, until the receiver has seen a request. */
async function firstRequest(receiver: OtlpReceiver): Promise<void> {
  while (receiver.requests === 0) await new Promise((resolve) => setImmediate(resolve));
}

describe("each lost span is counted once", () => {
  test("spans whose export was in flight when a flush began and failed after it: 6 spans, 6 dropped", async () => {
    const receiver = await startOtlpReceiver("hang");
    try {
      // The batch processor's timer starts the export at once; it fails when its 300 ms limit runs out.
      const telemetry = setupTelemetry({ url: receiver.url, exportTimeoutMs: 300, batch: { scheduledDelayMillis: 1 } });
      endSpans(telemetry, 6);
      await firstRequest(receiver);
      const stopped = await telemetry.shutdown();
      assert.deepEqual(stopped, { flushed: true, dropped: 6 });
      assert.deepEqual([telemetry.counts.ended, telemetry.counts.exported, telemetry.counts.lost], [6, 0, 6]);
    } finally {
      await receiver.close();
    }
  });

  test("a full queue: the spans the batch processor cannot hold are counted lost when they end, the rest exported", async () => {
    const receiver = await startOtlpReceiver("ok");
    try {
      const telemetry = setupTelemetry({ url: receiver.url, batch: { maxQueueSize: 10, maxExportBatchSize: 10 } });
      endSpans(telemetry, 25); // no yield in between: one batch of 10 leaves, 10 wait, 5 find the queue full
      assert.equal(telemetry.droppedSpans(), 5);
      assert.deepEqual(await telemetry.shutdown(), { flushed: true, dropped: 5 });
      assert.equal(receiver.spans.length, 20);
    } finally {
      await receiver.close();
    }
  });
});

describe("flush and shutdown are bounded even when the collector is unreachable", () => {
  test("connection refused fails fast: the first shutdown() returns well within its 5 s limit, every span counted once", async () => {
    const telemetry = setupTelemetry({ url: await refusedUrl(), shutdownTimeoutMs: 5000 });
    endSpans(telemetry, 6);
    const { value, ms } = await timed(() => telemetry.shutdown());
    assert.ok(ms < GRACE_MS, `shutdown took ${Math.round(ms)} ms`);
    assert.deepEqual(value, { flushed: true, dropped: 6 });
  });

  test("a black-holed collector: close() takes the extension's flushTimeoutMs once, shutdown() does not wait again, 9 spans reported lost once", async () => {
    const receiver = await startOtlpReceiver("hang");
    const telemetry = setupTelemetry({ url: receiver.url, shutdownTimeoutMs: 5000 });
    const { agent, cleanup } = scenarioAgent([new OpenTelemetryExtension({ telemetry, flushTimeoutMs: 1000 })]);
    const reports: ErrorData[] = [];
    agent.hooks.on(HookEvent.ERROR, (e) => void (e.data.source === "exporter" && reports.push(e.data)));
    try {
      assert.equal((await agent.run("How are the regions?")).status, "completed");
      const close = await timed(() => agent.close());
      assert.ok(close.ms < 1000 + GRACE_MS, `close took ${Math.round(close.ms)} ms`);
      const shutdown = await timed(() => telemetry.shutdown());
      assert.ok(shutdown.ms < GRACE_MS, `shutdown took ${Math.round(shutdown.ms)} ms after close had given up`);
      assert.equal(shutdown.value.dropped, SPANS_PER_RUN);
      assert.deepEqual(
        reports.map((r) => r.dropped),
        [SPANS_PER_RUN],
      );
      assert.match(reports[0]!.error.message, /flush did not finish within 1000 ms/);
    } finally {
      cleanup();
      await receiver.close();
    }
  });
});
