// Content in the GenAI conventions' shapes (messages, parts, finish reasons, tool definitions),
// cut per part at the limit; errors read from live or recorded values; spilled results by reference.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Message } from "../types/content.js";
import { cut, inputMessages, outputMessages, safeJson, systemInstructions, toolDefinitions } from "./content.js";
import { spanError } from "./errors.js";
import { SPAN_KIND, SPAN_OPERATION, spanName } from "./span-names.js";
import { spillOf } from "./spill.js";
import { traceEventOf } from "./span-model.js";

describe("cut", () => {
  test("keeps a text of the limit or less whole, cuts a longer one and keeps its length", () => {
    assert.deepEqual(cut("abcd", 4), { text: "abcd", truncated: false, originalChars: 4 });
    assert.deepEqual(cut("abc", 4), { text: "abc", truncated: false, originalChars: 3 });
    assert.deepEqual(cut("abcde", 4), { text: "abcd", truncated: true, originalChars: 5 });
  });
});

describe("input messages", () => {
  const conversation: Message[] = [
    { role: "user", content: [{ type: "text", text: "find flights" }] },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "search first" },
        { type: "text", text: "searching" },
        { type: "tool_call", id: "c1", name: "search", input: { q: "AMS" } },
        { type: "provider_owned", provider: "x", data: "opaque" } as never,
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", toolCallId: "c1", name: "search", content: "2 flights", isError: false },
        { type: "text", text: "thanks" },
      ],
    },
  ];

  test("user text, assistant parts in order (provider-owned blocks left out), tool results as tool messages before the user's text", () => {
    assert.deepEqual(inputMessages(conversation, 100), [
      { role: "user", parts: [{ type: "text", content: "find flights" }] },
      {
        role: "assistant",
        parts: [
          { type: "reasoning", content: "search first" },
          { type: "text", content: "searching" },
          { type: "tool_call", id: "c1", name: "search", arguments: { q: "AMS" } },
        ],
      },
      { role: "tool", parts: [{ type: "tool_call_response", id: "c1", result: "2 flights" }] },
      { role: "user", parts: [{ type: "text", content: "thanks" }] },
    ]);
  });

  test("each part is cut at the limit, with its original length", () => {
    assert.deepEqual(inputMessages(conversation, 4), [
      { role: "user", parts: [{ type: "text", content: "find", truncated: true, original_chars: 12 }] },
      {
        role: "assistant",
        parts: [
          { type: "reasoning", content: "sear", truncated: true, original_chars: 12 },
          { type: "text", content: "sear", truncated: true, original_chars: 9 },
          { type: "tool_call", id: "c1", name: "search", arguments: '{"q"', truncated: true, original_chars: 11 },
        ],
      },
      {
        role: "tool",
        parts: [{ type: "tool_call_response", id: "c1", result: "2 fl", truncated: true, original_chars: 9 }],
      },
      { role: "user", parts: [{ type: "text", content: "than", truncated: true, original_chars: 6 }] },
    ]);
  });

  test("arguments exactly at the limit stay an object; none become null", () => {
    const call = (input: unknown): Message[] => [
      { role: "assistant", content: [{ type: "tool_call", id: "c1", name: "f", input } as never] },
    ];
    assert.deepEqual(inputMessages(call({ q: "AMS" }), 11)[0]!.parts[0], {
      type: "tool_call",
      id: "c1",
      name: "f",
      arguments: { q: "AMS" },
    });
    assert.deepEqual(inputMessages(call(undefined), 10)[0]!.parts[0], {
      type: "tool_call",
      id: "c1",
      name: "f",
      arguments: null,
    });
  });

  test("messages a recording kept without content, and holes, are skipped; a message of neither kind adds nothing", () => {
    const odd = [
      null,
      { role: "user", content: "[content not recorded]" },
      { role: "user", content: [{ type: "image", data: "x" }] },
      { role: "assistant", content: [] },
    ] as never;
    assert.deepEqual(inputMessages(odd, 10), [{ role: "assistant", parts: [] }]);
  });
});

describe("output messages and the rest", () => {
  test("a reply is one assistant message with the conventions' finish reason", () => {
    const reasons: Array<[string, string]> = [
      ["end_turn", "stop"],
      ["stop_sequence", "stop"],
      ["tool_use", "tool_call"],
      ["max_tokens", "length"],
      ["refusal", "content_filter"],
      ["pause_turn", "pause_turn"],
    ];
    for (const [stop, finish] of reasons)
      assert.deepEqual(
        outputMessages([{ type: "text", text: "ok" }], stop, 10),
        [{ role: "assistant", parts: [{ type: "text", content: "ok" }], finish_reason: finish }],
        stop,
      );
  });

  test("the system prompt is one text part, none when empty or not text", () => {
    assert.deepEqual(systemInstructions("be brief", 4), [
      { type: "text", content: "be b", truncated: true, original_chars: 8 },
    ]);
    assert.deepEqual(systemInstructions("", 4), []);
    assert.deepEqual(systemInstructions(["be brief"], 40), []);
  });

  test("tool definitions have type function and the schema as parameters", () => {
    assert.deepEqual(toolDefinitions([{ name: "f", description: "does f", inputSchema: { type: "object" } }]), [
      { type: "function", name: "f", description: "does f", parameters: { type: "object" } },
    ]);
  });

  test("safeJson never throws", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(safeJson({ a: 1 }), '{"a":1}');
    assert.equal(safeJson(undefined), "null");
    assert.equal(safeJson(cyclic), '"[object Object]"');
    assert.equal(safeJson(10n), '"10"');
  });
});

describe("spanError reads live and recorded errors", () => {
  test("the code first, else a class name other than Error, else the fallback", () => {
    assert.deepEqual(spanError(Object.assign(new TypeError("bad"), { code: "provider_auth" })), {
      type: "provider_auth",
      message: "bad",
    });
    assert.deepEqual(spanError(new TypeError("bad")), { type: "TypeError", message: "bad" });
    assert.deepEqual(spanError(new Error("plain")), { type: "_OTHER", message: "plain" });
    assert.deepEqual(spanError(new Error("plain"), "run_failed"), { type: "run_failed", message: "plain" });
    assert.deepEqual(
      spanError({ code: "", name: "", message: "m" }),
      { type: "_OTHER", message: "m" },
      "empty code and name fall back",
    );
    assert.deepEqual(
      spanError({ code: 7, name: 8, message: 9 }),
      { type: "_OTHER", message: "" },
      "fields that are not text are ignored",
    );
  });

  test("a string is the message; anything else gives an empty one", () => {
    assert.deepEqual(spanError("went wrong", "tool_error"), { type: "tool_error", message: "went wrong" });
    assert.deepEqual(spanError(undefined), { type: "_OTHER", message: "" });
    assert.deepEqual(spanError(null, "x"), { type: "x", message: "" });
    assert.deepEqual(spanError(42), { type: "_OTHER", message: "" });
  });
});

describe("trace events of hook contexts", () => {
  test("carry the event, time, run, payload, and the span when the context has one", () => {
    const span = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", role: "agent" as const };
    const data = { iteration: 1 };
    assert.deepEqual(traceEventOf({ event: "loop_iteration_start", runId: "run_1", span, data } as never, 5), {
      kind: "loop_iteration_start",
      ts: 5,
      runId: "run_1",
      span,
      data,
    });
    const bare = traceEventOf({ event: "loop_iteration_start", runId: undefined, data } as never, 6);
    assert.deepEqual(bare, { kind: "loop_iteration_start", ts: 6, runId: undefined, data });
    assert.equal("span" in bare, false);
  });
});

describe("names and spills", () => {
  test("each role's operation, kind and span name", () => {
    assert.deepEqual(SPAN_OPERATION, { agent: "invoke_agent", chat: "chat", tool: "execute_tool" });
    assert.deepEqual(SPAN_KIND, { agent: "INTERNAL", chat: "CLIENT", tool: "INTERNAL" });
    assert.equal(spanName("chat", "gpt-4o"), "chat gpt-4o");
  });

  test("a result's first artifact with an id is its spill; none without one", () => {
    const artifact = (id?: string) => ({
      sha256: "ab".repeat(32),
      bytes: 10,
      mediaType: "text/plain",
      ...(id ? { id } : {}),
    });
    const result = (artifacts?: unknown[]) =>
      ({ toolCallId: "c", name: "t", content: "", isError: false, ...(artifacts ? { artifacts } : {}) }) as never;
    assert.deepEqual(spillOf(result([artifact(), artifact("res_2")])), { resultId: "res_2", bytes: 10 });
    assert.equal(spillOf(result([artifact()])), undefined);
    assert.equal(spillOf(result()), undefined);
    assert.equal(spillOf(undefined), undefined);
    assert.equal(spillOf(result([artifact("")])), undefined, "an empty id names nothing");
  });
});
