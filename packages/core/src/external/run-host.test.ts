// A run another framework made, reported through a RunHost, reaches extensions as the same hook
// events, spans and result a native run gives them.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConfigError, HarnessError, ProviderError } from "../errors.js";
import { defineExtension } from "../extensions/extension.js";
import type { AnyHookContext } from "../hooks/payloads.js";
import { mapSpans } from "../spans/map-spans.js";
import { traceEventOf } from "../spans/span-model.js";
import type { ModelRequest, ProviderResponse } from "../types/provider.js";
import { FRAMEWORK_ATTRIBUTE } from "./hosted-run.js";
import { RunHost } from "./run-host.js";

function observedHost(extra: { failingObserver?: boolean } = {}) {
  const seen: AnyHookContext[] = [];
  const observer = defineExtension("observer", (ctx) => {
    ctx.onAnyHook((event) => {
      seen.push(event);
      if (extra.failingObserver && event.event === "llm_response") throw new Error("observer broke");
    });
  });
  const host = new RunHost({
    framework: "test-framework",
    name: "weather-bot",
    model: "m-1",
    extensions: [observer],
    prices: { "m-1": { inputPerMTok: 1, outputPerMTok: 2 } },
  });
  return { host, seen };
}

const request = (model = "m-1"): ModelRequest => ({
  model,
  system: "be brief",
  messages: [{ role: "user", content: [{ type: "text", text: "weather?" }] }],
  tools: [{ name: "lookup", description: "l", inputSchema: { type: "object" } }],
  maxTokens: 100,
  stream: false,
});
const reply = (text: string, usage = { inputTokens: 1000, outputTokens: 500 }): ProviderResponse => ({
  id: "resp-1",
  model: "m-1",
  provider: "acme",
  content: [{ type: "text", text }],
  stopReason: "end_turn",
  usage,
});

async function twoStepRun(host: RunHost) {
  const t0 = 1_700_000_000_000;
  const run = await host.startRun({ input: "weather?", at: t0 });
  const first = await run.startModelCall({ request: request(), at: t0 + 10 });
  await first.end({
    response: {
      ...reply(""),
      stopReason: "tool_use",
      content: [{ type: "tool_call", id: "c1", name: "lookup", input: { city: "Oslo" } }],
    },
    at: t0 + 20,
  });
  const lookup = await run.startToolCall({
    toolCall: { id: "c1", name: "lookup", input: { city: "Oslo" } },
    at: t0 + 21,
  });
  await lookup.end({ content: "rain", rawResult: { sky: "rain" }, at: t0 + 31 });
  const second = await run.startModelCall({ request: request(), at: t0 + 32 });
  await second.end({ response: reply("It rains."), at: t0 + 40 });
  const result = await run.end({ status: "completed", text: "It rains.", at: t0 + 41 });
  return { run, result, t0 };
}

describe("a hosted run fires the events of a native run", () => {
  test("in the engine's order, stamped with the times the framework gave", async () => {
    const { host, seen } = observedHost();
    const { t0 } = await twoStepRun(host);
    await host.close();
    assert.deepEqual(
      seen.map((e) => [e.event, e.timestamp - t0]),
      [
        ["agent_start", 0],
        ["llm_request", 10],
        ["llm_response", 20],
        ["tool_call_start", 21],
        ["tool_call_end", 31],
        ["llm_request", 32],
        ["llm_response", 40],
        ["agent_end", 41],
      ],
    );
    const start = seen[0];
    assert.equal(start.event, "agent_start");
    if (start.event === "agent_start") assert.equal(start.data.attributes?.[FRAMEWORK_ATTRIBUTE], "test-framework");
    const toolEnd = seen[4];
    if (toolEnd.event === "tool_call_end") {
      assert.equal(toolEnd.data.durationMs, 10);
      assert.equal(toolEnd.data.outcome, "executed");
    }
  });

  test("the result sums usage and prices each call with the agent's prices", async () => {
    const { host } = observedHost();
    const { result } = await twoStepRun(host);
    await host.close();
    assert.equal(result.status, "completed");
    assert.equal(result.modelCalls, 2);
    assert.deepEqual(
      { input: result.usage.inputTokens, output: result.usage.outputTokens },
      { input: 2000, output: 1000 },
    );
    assert.ok(Math.abs((result.usage.cost.usd ?? 0) - 0.004) < 1e-9, `cost ${result.usage.cost.usd}`);
  });

  test("calls sit under the run's span, and the one span mapping names them", async () => {
    const { host, seen } = observedHost();
    const { run } = await twoStepRun(host);
    await host.close();
    for (const e of seen.slice(1, -1)) {
      assert.equal(e.span?.parentSpanId, run.span.spanId);
      assert.equal(e.span?.traceId, run.span.traceId);
    }
    const spans = mapSpans(
      seen.map((e) => traceEventOf(e, e.timestamp)),
      { agent: { name: "weather-bot" } },
    );
    assert.deepEqual(
      spans.map((s) => [s.name, s.parentSpanId === run.span.spanId]),
      [
        ["invoke_agent weather-bot", false],
        ["chat m-1", true],
        ["execute_tool lookup", true],
        ["chat m-1", true],
      ],
    );
    assert.equal(spans[0].attributes["harnessx.framework"], "test-framework");
  });

  test("a run started under another span nests under it", async () => {
    const { host } = observedHost();
    const outer = await host.startRun({ input: "outer" });
    const tool = await outer.startToolCall({ toolCall: { id: "t", name: "delegate", input: {} } });
    const inner = await host.startRun({ input: "inner", parent: tool.span });
    assert.equal(inner.span.parentSpanId, tool.span.spanId);
    assert.equal(inner.span.traceId, outer.span.traceId);
    await host.close();
  });
});

describe("failures are reported as a native run reports them", () => {
  test("a failed model call ends its span with a provider ERROR; a failed run gets ERROR then AGENT_END", async () => {
    const { host, seen } = observedHost();
    const run = await host.startRun({ input: "x" });
    const call = await run.startModelCall({ request: request() });
    await call.fail(new Error("503 from upstream"));
    const result = await run.end({ status: "failed", text: "", error: new Error("gave up") });
    await host.close();
    assert.deepEqual(
      seen.map((e) => e.event),
      ["agent_start", "llm_request", "error", "error", "agent_end"],
    );
    const callError = seen[2];
    if (callError.event === "error") {
      assert.equal(callError.data.source, "provider");
      assert.ok(callError.data.error instanceof ProviderError);
      assert.equal(callError.span?.spanId, call.span.spanId);
    }
    assert.equal(result.status, "failed");
    assert.equal(result.error?.code, "run_failed");
    assert.equal(result.error?.message, "gave up");
    const spans = mapSpans(seen.map((e) => traceEventOf(e, e.timestamp)));
    assert.equal(spans[1].error?.message, "503 from upstream");
  });

  test("an observer that throws becomes an ERROR event, and the run goes on", async () => {
    const { host, seen } = observedHost({ failingObserver: true });
    const { result } = await twoStepRun(host);
    await host.close();
    assert.equal(result.status, "completed");
    assert.ok(seen.some((e) => e.event === "error" && e.data.source === "hook"));
  });

  test("ending twice changes nothing", async () => {
    const { host, seen } = observedHost();
    const run = await host.startRun({ input: "x" });
    const first = await run.end({ status: "completed", text: "a" });
    const second = await run.end({ status: "failed", text: "b", error: new Error("late") });
    await host.close();
    assert.equal(second, first);
    assert.equal(seen.filter((e) => e.event === "agent_end").length, 1);
  });
});

describe("bad input gives a typed error", () => {
  test("a host without a framework name, a run without input, a run after close", async () => {
    assert.throws(() => new RunHost({ framework: "" }), ConfigError);
    const host = new RunHost({ framework: "f" });
    await assert.rejects(
      host.startRun({ input: 42 as unknown as string }),
      (err: unknown) => err instanceof HarnessError && err.code === "invalid_run_start",
    );
    await host.close();
    await assert.rejects(
      host.startRun({ input: "late" }),
      (err: unknown) => err instanceof HarnessError && err.code === "host_closed",
    );
  });
});
