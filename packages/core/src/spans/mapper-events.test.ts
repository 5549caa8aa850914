// How the mapping places what happens during a run as span events: retries on the span they
// retry, denials and errors, and prompt cache breaks on the run span.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { call, ended, mapping, reply, request, start } from "../test-support/span-mapping.js";

describe("retries are events of the span they retry", () => {
  test("a model retry on the open chat span, a tool retry on its call's span, anything else on the run span", () => {
    const { feed, span, sink } = mapping();
    feed("agent_start", start);
    feed("llm_request", request);
    feed("retry", {
      target: "model",
      attempt: 1,
      delayMs: 200,
      error: Object.assign(new Error("overloaded"), { code: "provider_server" }),
    });
    feed("llm_response", reply);
    feed("tool_call_start", { toolCall: call("c1") });
    feed("retry", { target: "tool", attempt: 2, delayMs: 50, error: new Error("flaky"), toolCall: call("c1") });
    feed("tool_call_end", ended("c1"));
    feed("retry", { target: "tool", attempt: 1, delayMs: 5, error: new Error("gone"), toolCall: call("c9") });
    feed("retry", { target: "model", attempt: 1, delayMs: 5, error: new Error("no call open") });
    feed("llm_request", request);
    feed("retry", { target: "model", attempt: 2, delayMs: 5, error: new Error("model again"), toolCall: call("c1") });
    assert.deepEqual(span("chat m").events, [
      {
        name: "harnessx.retry",
        time: 1002,
        attributes: {
          "harnessx.retry.target": "model",
          "harnessx.retry.attempt": 1,
          "harnessx.retry.delay_ms": 200,
          "error.type": "provider_server",
          "exception.message": "overloaded",
        },
      },
    ]);
    assert.deepEqual(span("execute_tool search").events, [
      {
        name: "harnessx.retry",
        time: 1005,
        attributes: {
          "harnessx.retry.target": "tool",
          "harnessx.retry.attempt": 2,
          "harnessx.retry.delay_ms": 50,
          "error.type": "_OTHER",
          "exception.message": "flaky",
        },
      },
    ]);
    assert.deepEqual(
      sink.spans[0].events.map((e) => [e.name, e.attributes["exception.message"]]),
      [
        ["harnessx.retry", "gone"],
        ["harnessx.retry", "no call open"],
      ],
      "a retry of nothing open lands on the run",
    );
    assert.deepEqual(
      sink.spans.filter((s) => s.role === "chat")[1].events.map((e) => e.attributes["exception.message"]),
      ["model again"],
      "a model retry goes to the model call, whatever call it names",
    );
  });
});

describe("denials, errors and prompt cache breaks", () => {
  test("a denied call's span gets a policy_denied event naming who denied it and why", () => {
    const { feed, span } = mapping();
    feed("agent_start", start);
    feed(
      "tool_call_end",
      ended("c1", "denied", { permission: { decision: "deny", source: "policy:no@guard", reason: "off today" } }),
    );
    feed("tool_call_end", { ...ended("c2", "denied"), toolCall: call("c2", "rm") });
    assert.deepEqual(span("execute_tool search").events, [
      {
        name: "harnessx.policy_denied",
        time: 1001,
        attributes: { "harnessx.permission.source": "policy:no@guard", "harnessx.permission.reason": "off today" },
      },
    ]);
    assert.deepEqual(
      span("execute_tool rm").events,
      [{ name: "harnessx.policy_denied", time: 1002, attributes: {} }],
      "without a permission, an event without attributes",
    );
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
    feed("error", {
      source: "hook",
      error: Object.assign(new Error("observer broke"), { code: "extension_error" }),
      extension: "audit",
      dropped: 3,
    });
    feed("error", { source: "provider", error: new TypeError("late") });
    assert.deepEqual(sink.spans[0].events, [
      {
        name: "harnessx.error",
        time: 1001,
        attributes: {
          "harnessx.error.source": "hook",
          "exception.type": "extension_error",
          "exception.message": "observer broke",
          "harnessx.error.extension": "audit",
          "harnessx.dropped": 3,
        },
      },
      {
        name: "harnessx.error",
        time: 1002,
        attributes: { "harnessx.error.source": "provider", "exception.type": "TypeError", "exception.message": "late" },
      },
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
    feed("custom", {
      name: "prompt_cache_break",
      data: {
        changed: ["tools", "history"],
        tools: { added: ["a"], removed: [], changed: ["b", 7] },
        system: { firstDifference: 12 },
        history: { firstChangedMessage: 2, cause: "middleware", rewrittenBy: ["trimmer"] },
      },
    });
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
    feed("custom", {
      name: "prompt_cache_break",
      data: {
        changed: "tools",
        tools: { added: "a" },
        system: { firstDifference: "3" },
        history: { firstChangedMessage: "1", cause: 4, rewrittenBy: [] },
      },
    });
    assert.deepEqual(
      sink.spans[0].events.map((e) => e.attributes),
      [
        { "harnessx.prompt_cache.changed": [] },
        { "harnessx.prompt_cache.changed": [] },
        { "harnessx.prompt_cache.changed": [] },
      ],
    );
  });
});
