import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SpanCollector } from "./span-collector.js";
import type { TraceEvent } from "./span-model.js";
import { SpanMapper } from "./mapper.js";

function tracker(captureContent = false) {
  const sink = new SpanCollector();
  const t = new SpanMapper(
    sink,
    { name: "unit", sessionId: "s1", provider: "p" },
    { captureContent, maxContentChars: 50 },
  );
  let ts = 1000;
  /** `runId: null` stands for an event outside any run. Payloads are written loosely, as a recording holds them. */
  const feed = (kind: string, data: unknown, runId: string | null = "run_1") =>
    t.handle({ kind, ts: ts++, runId: runId ?? undefined, data } as TraceEvent);
  return { sink, t, feed };
}

const start = { runId: "run_1", input: "hi", model: "m", resumed: false };
const request = {
  system: "sys",
  model: "m",
  maxTokens: 10,
  temperature: undefined,
  stream: false,
  messageCount: 1,
  toolCount: 0,
  prefixKey: "k",
  request: { model: "m", system: "sys", messages: [], tools: [], maxTokens: 10, stream: false },
};

describe("the mapping from events to spans", () => {
  test("recovery and condensing are run span events; events outside a run are ignored", () => {
    const { sink, t, feed } = tracker();
    feed("agent_start", start);
    feed("recovery", { reason: "truncated_text", attempt: 1, replyBudget: null });
    feed("context_condensed", { messagesDropped: 4, summaryChars: 0, summarized: false });
    feed("recovery", { reason: "empty_reply", attempt: 1, replyBudget: null }, null);
    feed("loop_iteration_start", { iteration: 1 });
    feed("agent_end", {
      result: {
        status: "completed",
        text: "",
        pending: [],
        usage: { inputTokens: 1, outputTokens: 2 },
        runId: "run_1",
        modelCalls: 0,
      },
    });
    assert.equal(t.openRuns, 0);
    assert.equal(sink.spans.length, 1);
    const run = sink.spans[0];
    assert.deepEqual(
      run.events.map((e) => e.name),
      ["harnessx.recovery", "harnessx.context_condensed"],
    );
    assert.equal(run.events[0].attributes["harnessx.recovery.reason"], "truncated_text");
    assert.equal(run.events[0].attributes["harnessx.recovery.reply_budget"], undefined, "null values are left out");
    assert.equal(run.events[1].attributes["harnessx.condensed.messages_dropped"], 4);
  });

  test("a tool call that ends without starting gets a short span ending at its end event", () => {
    const { sink, feed } = tracker();
    feed("agent_start", start);
    feed("tool_call_end", {
      toolCall: { id: "c1", name: "nope", input: {} },
      result: { toolCallId: "c1", name: "nope", content: "Error: there is no tool", isError: true },
      rawResult: undefined,
      durationMs: 0.5,
      outcome: "unknown_tool",
    });
    const span = sink.spans.find((s) => s.name === "execute_tool nope")!;
    assert.equal(span.parentSpanId, sink.spans[0].spanId);
    assert.equal(span.error?.type, "unknown_tool");
    assert.equal(span.endMs - span.startMs, 0.5);
  });

  test("a result that names a stored artifact marks the tool span as a reference; its text is never parsed for one", () => {
    const { sink, feed } = tracker(true);
    feed("agent_start", start);
    feed("tool_call_start", {
      toolCall: { id: "c2", name: "big", input: {} },
      permission: { decision: "allow", source: "manager" },
    });
    const artifacts = [{ sha256: "ab".repeat(32), bytes: 99_000, mediaType: "text/plain", id: "res_1" }];
    feed("tool_call_end", {
      toolCall: { id: "c2", name: "big", input: {} },
      result: { toolCallId: "c2", name: "big", content: "stored elsewhere", isError: false, artifacts },
      rawResult: "x".repeat(99_000),
      durationMs: 2,
      outcome: "executed",
    });
    feed("tool_call_start", {
      toolCall: { id: "c3", name: "echo", input: {} },
      permission: { decision: "allow", source: "manager" },
    });
    feed("tool_call_end", {
      toolCall: { id: "c3", name: "echo", input: {} },
      result: {
        toolCallId: "c3",
        name: "echo",
        content: JSON.stringify({ resultId: "res_fake", bytes: 1 }),
        isError: false,
      },
      rawResult: "",
      durationMs: 1,
      outcome: "executed",
    });
    assert.equal(
      sink.spans.find((s) => s.name === "execute_tool echo")!.attributes["harnessx.result.id"],
      undefined,
      "an envelope-looking text is just text",
    );
    const span = sink.spans.find((s) => s.name === "execute_tool big")!;
    assert.equal(span.attributes["harnessx.result.id"], "res_1");
    assert.equal(span.attributes["gen_ai.tool.call.result"], JSON.stringify({ resultId: "res_1", bytes: 99_000 }));
  });

  test("an open model call ends with ERROR on a provider error; the run's end closes what is left", () => {
    const { sink, feed } = tracker();
    feed("agent_start", start);
    feed("llm_request", request);
    feed("error", {
      source: "provider",
      error: { name: "ProviderError", message: "overloaded", code: "provider_server" },
    });
    feed("llm_request", request);
    feed("agent_end", {
      result: {
        status: "cancelled",
        text: "",
        pending: [],
        usage: { inputTokens: 0, outputTokens: 0 },
        runId: "run_1",
        modelCalls: 2,
      },
    });
    const chats = sink.spans.filter((s) => s.name === "chat m");
    assert.deepEqual(
      chats.map((c) => c.error?.type),
      ["provider_server", "cancelled"],
    );
    assert.equal(sink.spans[0].error?.type, "cancelled");
  });

  test("content parts longer than the limit are cut with their original length", () => {
    const { sink, feed } = tracker(true);
    feed("agent_start", start);
    feed("llm_request", {
      ...request,
      request: {
        ...request.request,
        system: "s".repeat(80),
        messages: [{ role: "user", content: [{ type: "text", text: "u".repeat(120) }] }],
      },
    });
    const chat = sink.spans.find((s) => s.name === "chat m")!;
    assert.deepEqual(JSON.parse(String(chat.attributes["gen_ai.system_instructions"])), [
      { type: "text", content: "s".repeat(50), truncated: true, original_chars: 80 },
    ]);
    const [message] = JSON.parse(String(chat.attributes["gen_ai.input.messages"])) as Array<{
      parts: Array<{ original_chars: number }>;
    }>;
    assert.equal(message.parts[0].original_chars, 120);
  });
});
