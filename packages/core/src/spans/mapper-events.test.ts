// How the mapping places what happens during a run: retries on the span they retry, denials and
// errors as span events, prompt cache breaks on the run span, spans cut off by the run's end, and
// events of runs it never saw ignored.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SpanCollector, type MappedSpan } from "./span-collector.js";
import { SpanMapper } from "./mapper.js";
import type { TraceEvent } from "./span-model.js";

function mapping() {
  const sink = new SpanCollector();
  const mapper = new SpanMapper(sink, { name: "unit" }, { captureContent: false, maxContentChars: 100 });
  let ts = 1000;
  /** `runId: null` stands for an event outside any run. */
  const feed = (kind: string, data: unknown, runId: string | null = "run_1") => mapper.handle({ kind, ts: ts++, runId: runId ?? undefined, data } as TraceEvent);
  const span = (name: string): MappedSpan => sink.spans.find((s) => s.name === name)!;
  return { sink, mapper, feed, span };
}

const start = { runId: "run_1", input: "hi", model: "m", resumed: false };
const request = { system: "", model: "m", maxTokens: 0, stream: false, messageCount: 0, toolCount: 0, prefixKey: "k", request: { model: "m", messages: [], tools: [] } };
const reply = { response: { content: [] }, provider: "p", model: "m", usage: { inputTokens: 1, outputTokens: 1 }, stopReason: "end_turn", durationMs: 1 };
const call = (id: string, name = "search") => ({ id, name, input: {} });
const ended = (id: string, outcome = "executed", extra: object = {}) => ({ toolCall: call(id), result: { toolCallId: id, name: "search", content: "ok", isError: outcome !== "executed" }, durationMs: 1, outcome, ...extra });
const endRun = (status: string) => ({ result: { status, text: "", pending: [], usage: { inputTokens: 0, outputTokens: 0 }, runId: "run_1", modelCalls: 0 } });

describe("retries are events of the span they retry", () => {
  test("a model retry on the open chat span, a tool retry on its call's span, anything else on the run span", () => {
    const { feed, span, sink } = mapping();
    feed("agent_start", start);
    feed("llm_request", request);
    feed("retry", { target: "model", attempt: 1, delayMs: 200, error: Object.assign(new Error("overloaded"), { code: "provider_server" }) });
    feed("llm_response", reply);
    feed("tool_call_start", { toolCall: call("c1") });
    feed("retry", { target: "tool", attempt: 2, delayMs: 50, error: new Error("flaky"), toolCall: call("c1") });
    feed("tool_call_end", ended("c1"));
    feed("retry", { target: "tool", attempt: 1, delayMs: 5, error: new Error("gone"), toolCall: call("c9") });
    feed("retry", { target: "model", attempt: 1, delayMs: 5, error: new Error("no call open") });
    feed("llm_request", request);
    feed("retry", { target: "model", attempt: 2, delayMs: 5, error: new Error("model again"), toolCall: call("c1") });
    assert.deepEqual(span("chat m").events, [{ name: "harnessx.retry", time: 1002, attributes: { "harnessx.retry.target": "model", "harnessx.retry.attempt": 1, "harnessx.retry.delay_ms": 200, "error.type": "provider_server", "exception.message": "overloaded" } }]);
    assert.deepEqual(span("execute_tool search").events, [{ name: "harnessx.retry", time: 1005, attributes: { "harnessx.retry.target": "tool", "harnessx.retry.attempt": 2, "harnessx.retry.delay_ms": 50, "error.type": "_OTHER", "exception.message": "flaky" } }]);
    assert.deepEqual(sink.spans[0].events.map((e) => [e.name, e.attributes["exception.message"]]), [["harnessx.retry", "gone"], ["harnessx.retry", "no call open"]], "a retry of nothing open lands on the run");
    assert.deepEqual(sink.spans.filter((s) => s.role === "chat")[1].events.map((e) => e.attributes["exception.message"]), ["model again"], "a model retry goes to the model call, whatever call it names");
  });
});

describe("denials, errors and prompt cache breaks", () => {
  test("a denied call's span gets a policy_denied event naming who denied it and why", () => {
    const { feed, span } = mapping();
    feed("agent_start", start);
    feed("tool_call_end", ended("c1", "denied", { permission: { decision: "deny", source: "policy:no@guard", reason: "off today" } }));
    feed("tool_call_end", { ...ended("c2", "denied"), toolCall: call("c2", "rm") });
    assert.deepEqual(span("execute_tool search").events, [{ name: "harnessx.policy_denied", time: 1001, attributes: { "harnessx.permission.source": "policy:no@guard", "harnessx.permission.reason": "off today" } }]);
    assert.deepEqual(span("execute_tool rm").events, [{ name: "harnessx.policy_denied", time: 1002, attributes: {} }], "without a permission, an event without attributes");
    assert.equal(span("execute_tool search").error?.type, "denied");
  });

  test("an executed call gets no denial event", () => {
    const { feed, span } = mapping();
    feed("agent_start", start);
    feed("tool_call_start", { toolCall: call("c1") });
    feed("tool_call_end", ended("c1"));
    assert.deepEqual(span("execute_tool search").events, []);
  });

  test("an error is a run span event with its source, type, message, extension and drops; a provider error with no call open too", () => {
    const { feed, sink } = mapping();
    feed("agent_start", start);
    feed("error", { source: "hook", error: Object.assign(new Error("observer broke"), { code: "extension_error" }), extension: "audit", dropped: 3 });
    feed("error", { source: "provider", error: new TypeError("late") });
    assert.deepEqual(sink.spans[0].events, [
      { name: "harnessx.error", time: 1001, attributes: { "harnessx.error.source": "hook", "exception.type": "extension_error", "exception.message": "observer broke", "harnessx.error.extension": "audit", "harnessx.dropped": 3 } },
      { name: "harnessx.error", time: 1002, attributes: { "harnessx.error.source": "provider", "exception.type": "TypeError", "exception.message": "late" } },
    ]);
  });

  test("a tool's error while a model call is open leaves the call open", () => {
    const { feed, span, mapper } = mapping();
    feed("agent_start", start);
    feed("llm_request", request);
    feed("error", { source: "tool", error: new Error("tool trouble") });
    assert.ok(mapper.openModelHandle("run_1"), "the call is still open");
    feed("llm_response", reply);
    assert.equal(span("chat m").error, undefined);
  });

  test("a prompt cache break is a run span event; other custom events are not traced", () => {
    const { feed, sink } = mapping();
    feed("agent_start", start);
    feed("custom", { name: "prompt_cache_break", data: { changed: ["tools", "history"], tools: { added: ["a"], removed: [], changed: ["b", 7] }, system: { firstDifference: 12 }, history: { firstChangedMessage: 2, cause: "middleware", rewrittenBy: ["trimmer"] } } });
    feed("custom", { name: "my_extension_event", data: { secret: "x" } });
    assert.deepEqual(sink.spans[0].events, [
      {
        name: "harnessx.prompt_cache_break",
        time: 1001,
        attributes: {
          "harnessx.prompt_cache.changed": ["tools", "history"],
          "harnessx.prompt_cache.tools_added": ["a"],
          "harnessx.prompt_cache.tools_changed": ["b"],
          "harnessx.prompt_cache.system_first_difference": 12,
          "harnessx.prompt_cache.history_first_changed_message": 2,
          "harnessx.prompt_cache.history_cause": "middleware",
          "harnessx.prompt_cache.history_rewritten_by": ["trimmer"],
        },
      },
    ]);
  });

  test("a recorded cache break read defensively: missing or odd fields are left out", () => {
    const { feed, sink } = mapping();
    feed("agent_start", start);
    feed("custom", { name: "prompt_cache_break", data: undefined });
    feed("custom", { name: "prompt_cache_break", data: { changed: [] } });
    feed("custom", { name: "prompt_cache_break", data: { changed: "tools", tools: { added: "a" }, system: { firstDifference: "3" }, history: { firstChangedMessage: "1", cause: 4, rewrittenBy: [] } } });
    assert.deepEqual(sink.spans[0].events.map((e) => e.attributes), [{ "harnessx.prompt_cache.changed": [] }, { "harnessx.prompt_cache.changed": [] }, { "harnessx.prompt_cache.changed": [] }]);
  });
});

describe("the run's end and its open spans", () => {
  test("a resumed run's second start is a resumed event on the same span", () => {
    const { feed, sink } = mapping();
    feed("agent_start", start);
    feed("agent_start", { ...start, resumed: true });
    assert.equal(sink.spans.length, 1);
    assert.deepEqual(sink.spans[0].events, [{ name: "harnessx.resumed", time: 1001, attributes: {} }]);
  });

  test("spans still open when the run ends fail as cut off by the run's end (run_ended, or cancelled)", () => {
    for (const [status, type] of [["completed", "run_ended"], ["failed", "run_ended"], ["cancelled", "cancelled"]] as const) {
      const { feed, span, mapper } = mapping();
      feed("agent_start", start);
      feed("llm_request", request);
      feed("tool_call_start", { toolCall: call("c1") });
      feed("agent_end", endRun(status));
      const message = `the run ended before this operation did (${type})`;
      assert.deepEqual(span("chat m").error, { type, message }, status);
      assert.deepEqual(span("execute_tool search").error, { type, message }, status);
      assert.equal(mapper.openRuns, 0);
      assert.equal(mapper.openHandle("run_1"), undefined);
    }
  });

  test("a cut-off span keeps what it was made from", () => {
    const { feed, span, sink } = mapping();
    feed("agent_start", start);
    feed("llm_request", request);
    feed("llm_request", request);
    feed("error", { source: "provider", error: new Error("down") });
    feed("tool_call_start", { toolCall: call("c1") });
    feed("agent_end", endRun("completed"));
    assert.deepEqual(span("execute_tool search").detail, { role: "tool", toolCall: call("c1") });
    const chats = sink.spans.filter((s) => s.role === "chat");
    assert.deepEqual(chats.map((c) => [c.error?.type, c.detail]), [["superseded", { role: "chat", request }], ["_OTHER", { role: "chat", request }]]);
  });

  test("a run's end recorded without its result closes the run as unfinished", () => {
    const { feed, sink, span } = mapping();
    feed("agent_start", start);
    feed("tool_call_start", { toolCall: call("c1") });
    feed("agent_end", {});
    assert.equal(sink.spans[0].attributes["harnessx.run.status"], "unfinished");
    assert.equal(span("execute_tool search").error?.type, "run_ended");
  });

  test("closeAll ends what is open as unfinished", () => {
    const { feed, sink, mapper } = mapping();
    feed("agent_start", start);
    feed("tool_call_start", { toolCall: call("c1") });
    mapper.closeAll(5000);
    assert.equal(sink.spans[0].attributes["harnessx.run.status"], "unfinished");
    assert.deepEqual(sink.spans[1].error, { type: "unfinished", message: "the run ended before this operation did (unfinished)" });
    assert.deepEqual(sink.spans.map((s) => s.endMs), [5000, 5000]);
    assert.equal(mapper.openRuns, 0);
  });

  test("a new model call before the last one ended supersedes it", () => {
    const { feed, sink } = mapping();
    feed("agent_start", start);
    feed("llm_request", request);
    feed("llm_request", request);
    feed("llm_response", reply);
    assert.deepEqual(sink.spans.filter((s) => s.role === "chat").map((s) => s.error), [{ type: "superseded", message: "a new model call started before this one ended" }, undefined]);
  });
});

describe("what the mapping ignores or hands out", () => {
  test("events of a run it never saw start, outside any run, or without their call, open nothing", () => {
    const { feed, sink, mapper } = mapping();
    for (const [kind, data] of [["agent_end", endRun("completed")], ["llm_request", request], ["llm_response", reply], ["tool_call_start", { toolCall: call("c1") }], ["tool_call_end", ended("c1")], ["retry", { target: "model", attempt: 1, delayMs: 1, error: new Error("x") }], ["error", { source: "hook", error: new Error("x") }], ["recovery", { reason: "empty_reply", attempt: 1, replyBudget: null }]] as const) {
      feed(kind, data, "run_unknown");
    }
    feed("agent_start", start, null);
    assert.deepEqual(sink.spans, []);
    feed("agent_start", start);
    feed("llm_response", reply);
    feed("tool_call_start", { toolCall: undefined });
    feed("tool_call_end", { ...ended("c1"), toolCall: undefined });
    assert.equal(sink.spans.length, 1, "a reply with no call open, and calls without a tool call, add no span");
    assert.equal(mapper.openRuns, 1);
  });

  test("openHandle gives the run's span, or an open call's; openModelHandle the open model call's", () => {
    const { feed, mapper, sink } = mapping();
    assert.equal(mapper.openHandle("run_1"), undefined);
    assert.equal(mapper.openModelHandle("run_1"), undefined);
    feed("agent_start", start);
    assert.equal(mapper.openHandle("run_1"), sink.spans[0]);
    assert.equal(mapper.openHandle("run_1", "c1"), undefined);
    assert.equal(mapper.openModelHandle("run_1"), undefined);
    feed("tool_call_start", { toolCall: call("c1") });
    feed("llm_request", request);
    assert.equal(mapper.openHandle("run_1", "c1"), sink.spans[1]);
    assert.equal(mapper.openModelHandle("run_1"), sink.spans[2]);
  });
});
