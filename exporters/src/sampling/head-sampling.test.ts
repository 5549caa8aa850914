// Head sampling of whole runs, with both exporters on one agent: the real OpenTelemetry SDK (spans in
// memory) and the real langsmith client talking to the local LangSmith server.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ROOT_CONTEXT } from "@opentelemetry/api";
import { SamplingDecision, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace-base";
import { startLangSmithServer, type LangSmithServer } from "../test-support/langsmith-server.js";
import { sampledRuns, type SampledRuns } from "../test-support/sampled-runs.js";

const RUNS = 40;

/** What the SDK's own sampler keeps of these trace ids at `ratio`. */
function sdkKeeps(traceIds: string[], ratio: number): string[] {
  const sampler = new TraceIdRatioBasedSampler(ratio);
  return traceIds.filter(
    (id) => sampler.shouldSample(ROOT_CONTEXT, id).decision === SamplingDecision.RECORD_AND_SAMPLED,
  );
}

const sorted = (ids: Iterable<string>) => [...ids].sort();

/** Every exported run is whole: its run span or chain run, a model call per step and the tool call (and the client's span under it). */
function assertWhole(out: SampledRuns): void {
  for (const [traceId, spans] of out.spans) {
    assert.deepEqual(
      spans.map((s) => s.name).sort(),
      ["GET /downstream", "chat scripted-model", "chat scripted-model", "execute_tool probe", "invoke_agent sampled"],
      `trace ${traceId}`,
    );
  }
  for (const [traceId, runs] of out.langsmith) {
    assert.deepEqual(
      runs.map((r) => `${r.run_type} ${r.name}`).sort(),
      ["chain sampled", "llm chat scripted-model", "llm chat scripted-model", "tool probe"],
      `trace ${traceId}`,
    );
  }
}

describe("head sampling: both exporters keep the same whole runs, as TraceIdRatioBased decides", () => {
  let server: LangSmithServer;
  before(async () => {
    server = await startLangSmithServer("ok");
  });
  after(() => server.close());

  test("sample 0.5: the runs each backend got are the SDK sampler's choice, and the same in both", async () => {
    server.runs.clear();
    const out = await sampledRuns(server, { runs: RUNS, sample: 0.5 });
    const expected = sorted(sdkKeeps(out.traceIds, 0.5));
    assert.ok(
      expected.length > 0 && expected.length < RUNS,
      `some runs kept and some dropped (${expected.length} of ${RUNS})`,
    );
    assert.deepEqual(sorted(out.spans.keys()), expected, "OpenTelemetry got the sampler's runs");
    assert.deepEqual(sorted(out.langsmith.keys()), expected, "LangSmith got the same runs");
    assertWhole(out);
  });

  test("a run left out is not a loss: no report, no span counted dropped", async () => {
    server.runs.clear();
    const out = await sampledRuns(server, { runs: 10, sample: 0.5 });
    assert.deepEqual(out.losses, []);
    assert.equal(out.droppedSpans, 0);
  });

  test("sample 0: nothing reaches either backend, and no run is uploaded to LangSmith at all", async () => {
    server.runs.clear();
    const before = server.paths.length;
    const out = await sampledRuns(server, { runs: 5, sample: 0 });
    assert.equal(out.traceIds.length, 5);
    assert.equal(out.spans.size, 0);
    assert.equal(out.langsmith.size, 0);
    assert.deepEqual(
      server.paths.slice(before).filter((path) => path.startsWith("POST /runs")),
      [],
    );
    assert.deepEqual(out.losses, []);
  });

  test("sample 0: a client inside the run sends an unsampled traceparent in the run's trace, and its span is dropped", async () => {
    const out = await sampledRuns(server, { runs: 3, sample: 0 });
    assert.equal(out.sentTraceparents.length, 3);
    for (const [i, sent] of out.sentTraceparents.entries())
      assert.match(sent, new RegExp(`^00-${out.traceIds[i]}-[0-9a-f]{16}-00$`));
    assert.equal(out.spans.size, 0);
  });

  test("sample 1 (the default): every run reaches both backends, whole", async () => {
    server.runs.clear();
    const out = await sampledRuns(server, { runs: 5 });
    assert.deepEqual(sorted(out.spans.keys()), sorted(out.traceIds));
    assert.deepEqual(sorted(out.langsmith.keys()), sorted(out.traceIds));
    assertWhole(out);
  });

  test("the flight recorder keeps every run, whatever the exporters sample", async () => {
    const out = await sampledRuns(server, { runs: 6, sample: 0 });
    assert.deepEqual(sorted(out.recorded), sorted(out.traceIds));
  });
});
