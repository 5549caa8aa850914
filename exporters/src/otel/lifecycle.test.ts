import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { context, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { OpenTelemetryExtension } from "./extension.js";
import { setupTelemetry } from "../otel-setup/setup.js";

function sdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider, tracer: provider.getTracer("test") };
}

const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);

describe("span lifecycle across pauses, failures and the caller's context", () => {
  test("a run paused for approval keeps one open span that the resumed run continues", async () => {
    const { exporter, tracer } = sdk();
    const risky = tool({ name: "risky", description: "Needs approval.", permission: "ask", execute: () => "done" });
    const agent = new Agent({
      name: "pauser",
      provider: new ScriptedProvider([
        { toolCalls: [{ id: "call_r", name: "risky", input: {} }] },
        { text: "finished" },
      ]),
      tools: [risky],
      extensions: [new OpenTelemetryExtension({ tracer })],
    });
    const paused = await agent.run("do it");
    assert.equal(paused.status, "awaiting_approval");
    assert.equal(
      named(exporter.getFinishedSpans(), "invoke_agent pauser").length,
      0,
      "the run span stays open while waiting",
    );
    const resumed = await agent.resume({ call_r: "approve" });
    assert.equal(resumed.status, "completed");
    await agent.close();
    const spans = exporter.getFinishedSpans();
    const runs = named(spans, "invoke_agent pauser");
    assert.equal(runs.length, 1);
    assert.ok(runs[0].events.some((e) => e.name === "harnessx.resumed"));
    const toolSpan = named(spans, "execute_tool risky")[0];
    assert.equal(toolSpan.parentSpanContext?.spanId, runs[0].spanContext().spanId);
    assert.equal(named(spans, "chat scripted-model").length, 2);
  });

  test("a provider failure ends the model span with ERROR and fails the run span", async () => {
    const { exporter, tracer } = sdk();
    const agent = new Agent({
      name: "failer",
      provider: new ScriptedProvider([{ error: { status: 400, message: "bad request" } }]),
      extensions: [new OpenTelemetryExtension({ tracer })],
    });
    const result = await agent.run("hi");
    assert.equal(result.status, "failed");
    await agent.close();
    const spans = exporter.getFinishedSpans();
    const chat = named(spans, "chat scripted-model")[0];
    assert.equal(chat.status.code, 2);
    assert.equal(chat.attributes["error.type"], "provider_invalid_request");
    assert.match(chat.status.message ?? "", /bad request/);
    const run = named(spans, "invoke_agent failer")[0];
    assert.equal(run.status.code, 2);
    assert.equal(run.attributes["error.type"], "provider_invalid_request");
    assert.equal(run.attributes["harnessx.run.status"], "failed");
  });

  test("the run span is a child of the span active where run() was called (NodeSDK context manager)", async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = setupTelemetry({ exporter });
    const agent = new Agent({
      name: "nested",
      provider: new ScriptedProvider([{ text: "ok" }]),
      extensions: [new OpenTelemetryExtension({ telemetry })],
    });
    const outer = telemetry.tracer.startSpan("http request");
    await context.with(trace.setSpan(context.active(), outer), () => agent.run("hi"));
    outer.end();
    await agent.close();
    await telemetry.forceFlush();
    const run = named(exporter.getFinishedSpans(), "invoke_agent nested")[0];
    assert.deepEqual(await telemetry.shutdown(), { flushed: true, dropped: 0 });
    assert.equal(run.parentSpanContext?.spanId, outer.spanContext().spanId);
    assert.equal(run.spanContext().traceId, outer.spanContext().traceId);
  });

  test("spans still open at close are ended, marked unfinished", async () => {
    const { exporter, tracer } = sdk();
    const risky = tool({ name: "risky", description: "Needs approval.", permission: "ask", execute: () => "done" });
    const agent = new Agent({
      name: "left",
      provider: new ScriptedProvider([{ toolCalls: [{ name: "risky", input: {} }] }]),
      tools: [risky],
      extensions: [new OpenTelemetryExtension({ tracer })],
    });
    await agent.run("do it");
    await agent.close();
    const run = named(exporter.getFinishedSpans(), "invoke_agent left")[0];
    assert.equal(run.attributes["harnessx.run.status"], "unfinished");
  });

  test("inside tool handlers and provider calls their span is active, so instrumented clients nest under it", async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = setupTelemetry({ exporter });
    const tracer = telemetry.tracer;
    const fetchy = tool({
      name: "fetchy",
      description: "Does its own traced work.",
      concurrent: true,
      execute: async ({ n }) => {
        await new Promise((r) => setTimeout(r, 5));
        // As an instrumented HTTP client would: start a span in whatever context is active.
        tracer.startSpan(`GET /status/${String(n)}`).end();
        return "ok";
      },
    });
    const scripted = new ScriptedProvider([
      {
        toolCalls: [
          { name: "fetchy", input: { n: 1 } },
          { name: "fetchy", input: { n: 2 } },
        ],
      },
      { text: "done" },
    ]);
    const provider = {
      name: "traced",
      complete: async (request: Parameters<typeof scripted.complete>[0]) => {
        tracer.startSpan("POST /v1/chat").end();
        return scripted.complete(request);
      },
    };
    const agent = new Agent({
      name: "inner",
      provider,
      tools: [fetchy],
      extensions: [new OpenTelemetryExtension({ telemetry })],
    });
    await agent.run("go");
    await agent.close();
    await telemetry.forceFlush();
    const spans = exporter.getFinishedSpans();
    await telemetry.shutdown();
    const toolSpans = named(spans, "execute_tool fetchy");
    assert.equal(toolSpans.length, 2);
    for (const n of [1, 2]) {
      const inner = named(spans, `GET /status/${n}`)[0];
      assert.ok(
        toolSpans.some((t) => t.spanContext().spanId === inner.parentSpanContext?.spanId),
        `GET /status/${n} nests under an execute_tool span`,
      );
    }
    assert.notEqual(
      named(spans, "GET /status/1")[0].parentSpanContext?.spanId,
      named(spans, "GET /status/2")[0].parentSpanContext?.spanId,
      "parallel calls keep their own spans",
    );
    const chats = spans.filter((s) => s.name.startsWith("chat "));
    const posts = named(spans, "POST /v1/chat");
    assert.equal(posts.length, 2);
    for (const post of posts)
      assert.ok(
        chats.some((c) => c.spanContext().spanId === post.parentSpanContext?.spanId),
        "the provider's HTTP span nests under chat",
      );
  });
});
