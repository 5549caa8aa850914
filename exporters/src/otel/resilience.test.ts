import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HookEvent, type ErrorData } from "@harnessx/core/extension";
import { OpenTelemetryExtension } from "./extension.js";
import { setupTelemetry } from "../otel-setup/setup.js";
import { refusedUrl, startOtlpReceiver, type ReceiverMode } from "../test-support/otlp-receiver.js";
import { scenarioAgent } from "../test-support/scenario.js";

const FLUSH_LIMIT_MS = 1500;
/** Scheduling slack on a loaded 2-core machine; the bound under test is the flush limit. */
const SLACK_MS = 2500;
const SPANS_PER_RUN = 9;

async function runAgainst(url: string) {
  const telemetry = setupTelemetry({ url, exportTimeoutMs: 800, shutdownTimeoutMs: FLUSH_LIMIT_MS });
  const { agent, cleanup } = scenarioAgent([new OpenTelemetryExtension({ telemetry, flushTimeoutMs: FLUSH_LIMIT_MS })]);
  const reports: ErrorData[] = [];
  agent.hooks.on(HookEvent.ERROR, (e) => {
    if (e.data.source === "exporter") reports.push(e.data);
  });
  try {
    const result = await agent.run("How are the regions?");
    const started = Date.now();
    await agent.close();
    const closeMs = Date.now() - started;
    await telemetry.shutdown();
    return { result, closeMs, reports };
  } finally {
    cleanup();
  }
}

describe("an unreachable or failing OTLP endpoint never fails or blocks a run", () => {
  const cases: Array<[string, ReceiverMode | "refused"]> = [
    ["connection refused", "refused"],
    ["endpoint that never answers", "hang"],
    ["HTTP 500", "status_500"],
    ["HTTP 429 with a long Retry-After", "status_429"],
  ];
  for (const [label, mode] of cases) {
    test(`${label}: the run completes, close() returns within its flush limit, every lost span is reported`, async () => {
      const receiver = mode === "refused" ? undefined : await startOtlpReceiver(mode);
      try {
        const out = await runAgainst(receiver?.url ?? (await refusedUrl()));
        assert.equal(out.result.status, "completed");
        assert.ok(out.closeMs < FLUSH_LIMIT_MS + SLACK_MS, `close took ${out.closeMs} ms`);
        assert.ok(out.reports.length >= 1, "an ERROR event with source exporter");
        assert.equal(
          out.reports.reduce((n, r) => n + (r.dropped ?? 0), 0),
          SPANS_PER_RUN,
        );
        assert.equal(out.reports[0]!.extension, "opentelemetry");
        if (receiver) assert.ok(receiver.requests >= 1, "the exporter did try");
      } finally {
        await receiver?.close();
      }
    });
  }
});
