// How the mapping ends the spans it opened: spans cut off by the run's end, superseded model
// calls, what closeAll leaves; and what it never opens (events of runs it never saw) or hands out.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { call, ended, mapping, reply, request, start } from "../test-support/span-mapping.js";

const endRun = (status: string) => ({
  result: { status, text: "", pending: [], usage: { inputTokens: 0, outputTokens: 0 }, runId: "run_1", modelCalls: 0 },
});

describe("the run's end and its open spans", () => {
  test("a resumed run's second start is a resumed event on the same span", () => {
    const { feed, sink } = mapping();
    feed("agent_start", start);
    feed("agent_start", { ...start, resumed: true });
    assert.equal(sink.spans.length, 1);
    assert.deepEqual(sink.spans[0]!.events, [{ name: "harnessx.resumed", time: 1001, attributes: {} }]);
  });

  test("spans still open when the run ends fail as cut off by the run's end (run_ended, or cancelled)", () => {
    for (const [status, type] of [
      ["completed", "run_ended"],
      ["failed", "run_ended"],
      ["cancelled", "cancelled"],
    ] as const) {
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
    assert.deepEqual(
      chats.map((c) => [c.error?.type, c.detail]),
      [
        ["superseded", { role: "chat", request }],
        ["_OTHER", { role: "chat", request }],
      ],
    );
  });

  test("a run's end recorded without its result closes the run as unfinished", () => {
    const { feed, sink, span } = mapping();
    feed("agent_start", start);
    feed("tool_call_start", { toolCall: call("c1") });
    feed("agent_end", {});
    assert.equal(sink.spans[0]!.attributes["harnessx.run.status"], "unfinished");
    assert.equal(span("execute_tool search").error?.type, "run_ended");
  });

  test("closeAll ends what is open as unfinished", () => {
    const { feed, sink, mapper } = mapping();
    feed("agent_start", start);
    feed("tool_call_start", { toolCall: call("c1") });
    mapper.closeAll(5000);
    assert.equal(sink.spans[0]!.attributes["harnessx.run.status"], "unfinished");
    assert.deepEqual(sink.spans[1]!.error, {
      type: "unfinished",
      message: "the run ended before this operation did (unfinished)",
    });
    assert.deepEqual(
      sink.spans.map((s) => s.endMs),
      [5000, 5000],
    );
    assert.equal(mapper.openRuns, 0);
  });

  test("a new model call before the last one ended supersedes it", () => {
    const { feed, sink } = mapping();
    feed("agent_start", start);
    feed("llm_request", request);
    feed("llm_request", request);
    feed("llm_response", reply);
    assert.deepEqual(
      sink.spans.filter((s) => s.role === "chat").map((s) => s.error),
      [{ type: "superseded", message: "a new model call started before this one ended" }, undefined],
    );
  });
});

describe("what the mapping ignores or hands out", () => {
  test("events of a run it never saw start, outside any run, or without their call, open nothing", () => {
    const { feed, sink, mapper } = mapping();
    for (const [kind, data] of [
      ["agent_end", endRun("completed")],
      ["llm_request", request],
      ["llm_response", reply],
      ["tool_call_start", { toolCall: call("c1") }],
      ["tool_call_end", ended("c1")],
      ["retry", { target: "model", attempt: 1, delayMs: 1, error: new Error("x") }],
      ["error", { source: "hook", error: new Error("x") }],
      ["recovery", { reason: "empty_reply", attempt: 1, replyBudget: null }],
    ] as const) {
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
