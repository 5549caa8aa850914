import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { HookEvent, defineExtension } from "@harnessx/core/extension";
import type { SpanContext } from "@harnessx/core/tracing";
import { context, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { OpenTelemetryExtension } from "./extension.js";
import { setupTelemetry } from "../otel-setup/setup.js";

/** The span core stamped on each hook event, by event. */
function stampsOf(agent: Agent): Map<HookEvent, SpanContext[]> {
  const seen = new Map<HookEvent, SpanContext[]>();
  for (const event of [HookEvent.AGENT_START, HookEvent.LLM_REQUEST, HookEvent.TOOL_CALL_START]) {
    agent.hooks.on(event, (ctx) => void seen.set(event, [...(seen.get(event) ?? []), ctx.span!]));
  }
  return seen;
}

const idsOf = (span: ReadableSpan) => ({
  traceId: span.spanContext().traceId,
  spanId: span.spanContext().spanId,
  parentSpanId: span.parentSpanContext?.spanId,
});

async function finished(
  telemetry: ReturnType<typeof setupTelemetry>,
  exporter: InMemorySpanExporter,
): Promise<ReadableSpan[]> {
  await telemetry.forceFlush();
  const spans = exporter.getFinishedSpans().slice();
  await telemetry.shutdown();
  return spans;
}

describe("the OpenTelemetry extension gives core its span ids", () => {
  test("hook contexts carry the live spans' ids; a run under a caller's span records that parent", async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = setupTelemetry({ exporter });
    const echo = tool({ name: "echo", description: "e", execute: () => "echoed" });
    const agent = new Agent({
      name: "ids",
      provider: new ScriptedProvider([{ toolCalls: [{ name: "echo", input: {} }] }, { text: "ok" }]),
      tools: [echo],
      extensions: [new OpenTelemetryExtension({ telemetry })],
    });
    const stamps = stampsOf(agent);
    const outer = telemetry.tracer.startSpan("http request");
    await context.with(trace.setSpan(context.active(), outer), () => agent.run("hi"));
    outer.end();
    await agent.close();
    const spans = await finished(telemetry, exporter);
    const live = (name: string) => spans.filter((s) => s.name === name).map(idsOf);
    const run = stamps.get(HookEvent.AGENT_START)![0];
    assert.deepEqual(live("invoke_agent ids"), [
      { traceId: run!.traceId, spanId: run!.spanId, parentSpanId: outer.spanContext().spanId },
    ]);
    assert.equal(
      run!.parentSpanId,
      outer.spanContext().spanId,
      "the recording names the caller's span as the run's parent",
    );
    assert.deepEqual(
      live("chat scripted-model"),
      stamps
        .get(HookEvent.LLM_REQUEST)!
        .map((s) => ({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId })),
    );
    assert.deepEqual(
      live("execute_tool echo"),
      stamps
        .get(HookEvent.TOOL_CALL_START)!
        .map((s) => ({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId })),
    );
  });

  test("an agent run inside another agent's tool call is one trace: its run span hangs under that call", async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = setupTelemetry({ exporter });
    const inner = new Agent({
      name: "inner",
      provider: new ScriptedProvider([{ text: "inner done" }]),
      extensions: [new OpenTelemetryExtension({ telemetry })],
    });
    const delegate = tool({ name: "delegate", description: "d", execute: async () => (await inner.run("sub")).text });
    const outer = new Agent({
      name: "outer",
      provider: new ScriptedProvider([{ toolCalls: [{ name: "delegate", input: {} }] }, { text: "ok" }]),
      tools: [delegate],
      extensions: [new OpenTelemetryExtension({ telemetry })],
    });
    await outer.run("x");
    await inner.close();
    await outer.close();
    const spans = await finished(telemetry, exporter);
    const call = spans.find((s) => s.name === "execute_tool delegate")!;
    const innerRun = spans.find((s) => s.name === "invoke_agent inner")!;
    assert.equal(innerRun.parentSpanContext?.spanId, call.spanContext().spanId);
    assert.equal(innerRun.spanContext().traceId, call.spanContext().traceId);
  });

  test("a model call that never went out (its request middleware threw) is ended as not started, not left open", async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = setupTelemetry({ exporter });
    const breaking = defineExtension({
      name: "breaking",
      install: (ctx) =>
        void ctx.addMiddleware({
          name: "Broken",
          beforeLlmCall: () => {
            throw new Error("middleware bug");
          },
        }),
    });
    const agent = new Agent({
      name: "broken",
      provider: new ScriptedProvider([{ text: "never" }]),
      extensions: [new OpenTelemetryExtension({ telemetry }), breaking],
    });
    const result = await agent.run("hi");
    assert.equal(result.status, "failed");
    await agent.close();
    const spans = await finished(telemetry, exporter);
    const chat = spans.find((s) => s.name === "chat scripted-model")!;
    assert.equal(chat.status.code, 2);
    assert.equal(chat.attributes["error.type"], "not_started");
    const run = spans.find((s) => s.name === "invoke_agent broken")!;
    assert.equal(chat.parentSpanContext?.spanId, run.spanContext().spanId);
  });
});
