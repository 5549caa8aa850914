// A parent's sampling decision (an incoming W3C traceparent, or the run of an outer agent) wins over
// the ratio, in both exporters: real OpenTelemetry SDK and propagator, real langsmith client.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Agent, ScriptedProvider, tool, type RunResult } from "@harnessx/core";
import { newSpanId, newTraceId } from "@harnessx/core/tracing";
import { ROOT_CONTEXT, context, propagation } from "@opentelemetry/api";
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { OpenTelemetryExtension } from "../otel/extension.js";
import { setupTelemetry } from "../otel-setup/setup.js";
import { LangSmithExtension } from "../langsmith/extension.js";
import { startLangSmithServer, type LangSmithServer } from "../test-support/langsmith-server.js";
import { sampledRuns } from "../test-support/sampled-runs.js";

interface Incoming {
  traceId: string;
  spanId: string;
}

/** Runs each run under a context extracted from a fresh `traceparent` with the given flags, as a server would. */
function underTraceparent(flags: (run: number) => "00" | "01" | undefined, incoming: Array<Incoming | undefined>) {
  return (run: () => Promise<RunResult>) => {
    const flag = flags(incoming.length);
    if (flag === undefined) {
      incoming.push(undefined);
      return run();
    }
    const parent = { traceId: newTraceId(), spanId: newSpanId() };
    incoming.push(parent);
    return context.with(
      propagation.extract(ROOT_CONTEXT, { traceparent: `00-${parent.traceId}-${parent.spanId}-${flag}` }),
      run,
    );
  };
}

const sorted = (ids: Iterable<string>) => [...ids].sort();

describe("an incoming traceparent's sampled flag wins over sample, in both exporters", () => {
  let server: LangSmithServer;
  before(async () => {
    server = await startLangSmithServer("ok");
  });
  after(() => server.close());

  test("sampled (01) at sample 0: each run is exported, in the caller's trace under the caller's span", async () => {
    server.runs.clear();
    const incoming: Array<Incoming | undefined> = [];
    const out = await sampledRuns(server, { runs: 3, sample: 0, within: underTraceparent(() => "01", incoming) });
    const callers = incoming.map((parent) => parent!.traceId);
    assert.deepEqual(out.traceIds, callers, "core's runs continue the callers' traces");
    assert.deepEqual(sorted(out.spans.keys()), sorted(callers));
    assert.deepEqual(sorted(out.langsmith.keys()), sorted(callers));
    for (const parent of incoming) {
      const run = out.spans.get(parent!.traceId)!.find((span) => span.name === "invoke_agent sampled")!;
      assert.equal(run.parentSpanContext?.spanId, parent!.spanId);
    }
  });

  test("unsampled (00) at sample 1: nothing is exported, even through an SDK that samples every span", async () => {
    server.runs.clear();
    const alwaysOn = new InMemorySpanExporter();
    const incoming: Array<Incoming | undefined> = [];
    // Odd runs come with an unsampled traceparent, even ones with none: only the even ones may arrive.
    const out = await sampledRuns(server, {
      runs: 4,
      sample: 1,
      tracer: () =>
        new BasicTracerProvider({
          sampler: new AlwaysOnSampler(),
          spanProcessors: [new SimpleSpanProcessor(alwaysOn)],
        }).getTracer("always-on"),
      within: underTraceparent((run) => (run % 2 === 1 ? "00" : undefined), incoming),
    });
    const unsampled = incoming.flatMap((parent, i) =>
      parent ? [{ traceId: parent.traceId, run: out.traceIds[i] }] : [],
    );
    assert.equal(unsampled.length, 2);
    for (const { traceId, run } of unsampled) assert.equal(run, traceId, "the recording keeps the caller's trace id");
    const kept = out.traceIds.filter((_, i) => i % 2 === 0);
    assert.deepEqual(
      sorted(new Set(alwaysOn.getFinishedSpans().map((span) => span.spanContext().traceId))),
      sorted(kept),
    );
    assert.deepEqual(sorted(out.langsmith.keys()), sorted(kept));
    assert.deepEqual(out.losses, []);
  });

  test("LangSmith alone reads the flag from the active OpenTelemetry context, both ways", async () => {
    server.runs.clear();
    const incoming: Array<Incoming | undefined> = [];
    const kept = await sampledRuns(server, {
      runs: 2,
      sample: 0,
      langsmithOnly: true,
      within: underTraceparent(() => "01", incoming),
    });
    assert.equal(kept.langsmith.size, 2);
    server.runs.clear();
    const dropped = await sampledRuns(server, {
      runs: 2,
      sample: 1,
      langsmithOnly: true,
      within: underTraceparent(() => "00", []),
    });
    assert.equal(dropped.langsmith.size, 0);
    assert.equal(server.runs.size, 0);
  });

  test("without a sample option there is no head sampling: LangSmith sends a run under an unsampled caller, as before", async () => {
    server.runs.clear();
    const unsampledCaller = await sampledRuns(server, {
      runs: 2,
      sample: undefined,
      langsmithOnly: true,
      within: underTraceparent(() => "00", []),
    });
    assert.equal(unsampledCaller.langsmith.size, 2);
  });
});

describe("a run paused for approval keeps its first decision when it resumes", () => {
  let server: LangSmithServer;
  before(async () => {
    server = await startLangSmithServer("ok");
  });
  after(() => server.close());

  test("started under an unsampled caller (sample 1), resumed outside any context: still nothing in either backend", async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = setupTelemetry({ serviceName: "resumed", exporter });
    const risky = tool({ name: "risky", description: "Needs approval.", permission: "ask", execute: () => "done" });
    const agent = new Agent({
      name: "pauser",
      provider: new ScriptedProvider([
        { toolCalls: [{ id: "call_r", name: "risky", input: {} }] },
        { text: "finished" },
      ]),
      tools: [risky],
      extensions: [
        new OpenTelemetryExtension({ telemetry, sample: 1 }),
        new LangSmithExtension({
          clientConfig: { apiUrl: server.url, apiKey: "test-key" },
          projectName: "resumed",
          sample: 1,
        }),
      ],
    });
    const unsampled = propagation.extract(ROOT_CONTEXT, { traceparent: `00-${newTraceId()}-${newSpanId()}-00` });
    const paused = await context.with(unsampled, () => agent.run("do it"));
    assert.equal(paused.status, "awaiting_approval");
    const resumed = await agent.resume({ call_r: "approve" });
    assert.equal(resumed.status, "completed");
    await agent.close();
    await telemetry.forceFlush();
    const spans = exporter.getFinishedSpans().map((span) => span.name);
    await telemetry.shutdown();
    assert.deepEqual(spans, []);
    assert.equal(server.runs.size, 0);
  });
});

describe("a run inside another agent's tool call follows the outer run's decision", () => {
  let server: LangSmithServer;
  before(async () => {
    server = await startLangSmithServer("ok");
  });
  after(() => server.close());

  async function nested(outerSample: number, innerSample: number) {
    server.runs.clear();
    const exporter = new InMemorySpanExporter();
    const telemetry = setupTelemetry({ serviceName: "nested", exporter });
    const exporters = (sample: number) => [
      new OpenTelemetryExtension({ telemetry, sample }),
      new LangSmithExtension({
        clientConfig: { apiUrl: server.url, apiKey: "test-key" },
        projectName: "nested",
        sample,
      }),
    ];
    const inner = new Agent({
      name: "inner",
      provider: new ScriptedProvider([{ text: "inner done" }]),
      extensions: exporters(innerSample),
    });
    const delegate = tool({
      name: "delegate",
      description: "Asks the inner agent.",
      execute: async () => (await inner.run("sub")).text,
    });
    const outer = new Agent({
      name: "outer",
      provider: new ScriptedProvider([{ toolCalls: [{ name: "delegate", input: {} }] }, { text: "ok" }]),
      tools: [delegate],
      extensions: exporters(outerSample),
    });
    await outer.run("go");
    await inner.close();
    await outer.close();
    await telemetry.forceFlush();
    const spans = exporter.getFinishedSpans().map((span) => span.name);
    await telemetry.shutdown();
    return {
      spans: spans.sort(),
      langsmith: [...server.runs.values()].map((run) => `${run.run_type} ${run.name}`).sort(),
    };
  }

  test("outer sampled out at 0: the inner run (sample 1) sends nothing either, so no backend holds half a tree", async () => {
    const out = await nested(0, 1);
    assert.deepEqual(out, { spans: [], langsmith: [] });
  });

  test("outer kept at 1: the inner run (sample 0) is kept with it, under the outer's tool call", async () => {
    const out = await nested(1, 0);
    assert.deepEqual(out.spans, [
      "chat scripted-model",
      "chat scripted-model",
      "chat scripted-model",
      "execute_tool delegate",
      "invoke_agent inner",
      "invoke_agent outer",
    ]);
    assert.deepEqual(out.langsmith, [
      "chain inner",
      "chain outer",
      "llm chat scripted-model",
      "llm chat scripted-model",
      "llm chat scripted-model",
      "tool delegate",
    ]);
  });
});
