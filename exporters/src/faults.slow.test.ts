import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { RunStatus } from "@harnessx/core";
import { HookEvent, type ErrorData } from "@harnessx/core/extension";
import { LangSmithExtension } from "./langsmith/extension.js";
import { OpenTelemetryExtension } from "./otel/extension.js";
import { setupTelemetry } from "./otel-setup/setup.js";
import { startHostileEndpoint, type HostileMode } from "./test-support/hostile-endpoint.js";
import { refusedUrl } from "./test-support/otlp-receiver.js";
import { scenarioAgent } from "./test-support/scenario.js";
import { captureStderr } from "./test-support/stderr.js";

/**
 * Exporter faults survived: real agent runs traced by each exporter against endpoints that
 * refuse, fail, hang, answer late, answer garbage or reset. For each one: the run completes,
 * close() returns within the flush limit, the losses are reported once with the right count,
 * and nothing is printed to stderr (during the run, at close, or by anything the SDKs do after).
 */
const FLUSH_LIMIT_MS = 1000;
/** Scheduling slack on a loaded machine; the bound under test is the flush limit. */
const GRACE_MS = 1500;
/** Spans (OpenTelemetry) or runs (LangSmith) one scenario run produces. */
const TRACED_PER_RUN = 9;

/** Each fault, and how many of the nine spans or runs it loses. */
const FAULTS: Array<[label: string, mode: HostileMode | "refused", lost: number]> = [
  ["connection refused", "refused", TRACED_PER_RUN],
  ["HTTP 500 to everything", "status_500", TRACED_PER_RUN],
  ["HTTP 429 with Retry-After 30 s", "status_429", TRACED_PER_RUN],
  ["black-holed (accepts, never answers)", "black_hole", TRACED_PER_RUN],
  ["slow but answering", "slow", 0],
  ["bytes that are not HTTP", "garbage", TRACED_PER_RUN],
  ["connections reset", "reset", TRACED_PER_RUN],
  ["HTTP 200 with a malformed body", "malformed_200", 0],
];

interface Outcome {
  status: RunStatus;
  closeMs: number;
  reports: ErrorData[];
  /** What the exporter's own accounting says was lost, after everything settled. */
  lost: number;
}

type Exporter = "opentelemetry" | "langsmith";

/** One traced scenario run; returns once the exporter and its SDK have nothing left to do. */
async function traceAgainst(exporter: Exporter, baseUrl: string): Promise<Outcome> {
  const telemetry =
    exporter === "opentelemetry"
      ? setupTelemetry({ url: `${baseUrl}/v1/traces`, shutdownTimeoutMs: FLUSH_LIMIT_MS })
      : undefined;
  const langsmith =
    exporter === "langsmith"
      ? new LangSmithExtension({
          clientConfig: { apiUrl: baseUrl, apiKey: "test-key" },
          flushTimeoutMs: FLUSH_LIMIT_MS,
        })
      : undefined;
  const extension = telemetry ? new OpenTelemetryExtension({ telemetry, flushTimeoutMs: FLUSH_LIMIT_MS }) : langsmith!;
  const { agent, cleanup } = scenarioAgent([extension]);
  const reports: ErrorData[] = [];
  agent.hooks.on(HookEvent.ERROR, (e) => void (e.data.source === "exporter" && reports.push(e.data)));
  try {
    const result = await agent.run("How are the regions?");
    const started = performance.now();
    await agent.close();
    const closeMs = performance.now() - started;
    let lost: number;
    if (telemetry) lost = (await telemetry.shutdown()).dropped;
    else {
      await langsmith!.client.awaitPendingTraceBatches();
      lost = sum(reports);
    }
    return { status: result.status, closeMs, reports, lost };
  } finally {
    cleanup();
  }
}

function sum(reports: ErrorData[]): number {
  return reports.reduce((n, r) => n + (r.dropped ?? 0), 0);
}

let survived = 0;

for (const exporter of ["opentelemetry", "langsmith"] as const) {
  describe(`${exporter} against hostile endpoints`, () => {
    for (const [label, mode, lost] of FAULTS) {
      test(`${label}: the run completes, close() is bounded, ${lost} lost reported once, nothing on stderr`, async () => {
        const endpoint = mode === "refused" ? undefined : await startHostileEndpoint(mode);
        const stderr = captureStderr();
        let out: Outcome;
        try {
          out = await traceAgainst(exporter, endpoint?.url ?? (await refusedUrl("")));
          await endpoint?.close(); // ends connections still open, so any late reaction of the SDKs happens now
        } finally {
          stderr.stop();
          await endpoint?.close();
        }
        assert.equal(out.status, "completed");
        assert.ok(out.closeMs < FLUSH_LIMIT_MS + GRACE_MS, `close took ${Math.round(out.closeMs)} ms`);
        assert.equal(sum(out.reports), lost, "losses reported as ERROR events");
        assert.equal(out.lost, lost, "the exporter's own count agrees: nothing counted twice");
        assert.ok(out.reports.every((r) => r.extension === exporter && r.error.message.startsWith(`${exporter}: `)));
        assert.equal(stderr.text(), "", "nothing printed to stderr");
        if (endpoint) assert.ok(endpoint.requests >= 1, "the exporter did try the endpoint");
        survived++;
      });
    }
  });
}

describe("exporter faults survived", () => {
  test(`all ${FAULTS.length} faults, for both exporters`, (t) => {
    t.diagnostic(`exporter faults survived: ${survived} of ${FAULTS.length * 2}`);
    assert.equal(survived, FAULTS.length * 2);
  });
});
