// What the tool call span of the one mapping carries, attribute by attribute: the names and values
// the OpenTelemetry GenAI conventions and harnessx's own namespace give a tool call, and what is
// left out (absent values, declared attributes in reserved namespaces).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ToolCallEndData } from "../hooks/payloads.js";
import { CONTENT, NO_CONTENT } from "../test-support/span-specs.js";
import { failedClose, toolClose, toolOpen } from "./span-specs.js";

const call = { id: "c1", name: "search", input: { q: "x" } };
const end = (over: Partial<ToolCallEndData> = {}): ToolCallEndData =>
  ({
    toolCall: call,
    result: { toolCallId: "c1", name: "search", content: "found", isError: false },
    rawResult: "found",
    durationMs: 1,
    outcome: "executed",
    ...over,
  }) as ToolCallEndData;

describe("the tool call span (execute_tool)", () => {
  test("opens with the tool's name, call id and type; arguments only when content is captured", () => {
    assert.deepEqual(toolOpen(call, 3, NO_CONTENT), {
      role: "tool",
      name: "execute_tool search",
      kind: "INTERNAL",
      time: 3,
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "search",
        "gen_ai.tool.call.id": "c1",
        "gen_ai.tool.type": "function",
      },
      detail: { role: "tool", toolCall: call },
    });
    assert.equal(toolOpen(call, 3, CONTENT).attributes["gen_ai.tool.call.arguments"], '{"q":"x"}');
    assert.equal(
      toolOpen({ ...call, input: undefined as never }, 3, CONTENT).attributes["gen_ai.tool.call.arguments"],
      "{}",
      "no input: empty arguments",
    );
  });

  test("arguments past the limit become a cut JSON string, their length kept beside", () => {
    const long = { ...call, input: { q: "x".repeat(40) } };
    const attributes = toolOpen(long, 3, CONTENT).attributes;
    const json = JSON.stringify(long.input);
    assert.equal(attributes["gen_ai.tool.call.arguments"], JSON.stringify(json.slice(0, 20)));
    assert.equal(attributes["harnessx.original_chars.gen_ai.tool.call.arguments"], json.length);
    const exact = { ...call, input: { q: "x".repeat(12) } };
    assert.equal(JSON.stringify(exact.input).length, 20);
    assert.equal(
      toolOpen(exact, 3, CONTENT).attributes["gen_ai.tool.call.arguments"],
      JSON.stringify(exact.input),
      "exactly the limit is kept whole",
    );
  });

  test("a tool's declared attributes are kept outside the reserved namespaces", () => {
    const open = toolOpen(call, 3, NO_CONTENT, {
      "mcp.method.name": "tools/call",
      "server.port": 443,
      "gen_ai.tool.name": "forged",
      "gen_ai.custom": "forged",
      "harnessx.tool.outcome": "forged",
    });
    assert.deepEqual(open.attributes, {
      "mcp.method.name": "tools/call",
      "server.port": 443,
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "search",
      "gen_ai.tool.call.id": "c1",
      "gen_ai.tool.type": "function",
    });
  });

  test("closes with the outcome; a result that is JSON stays JSON, other text becomes a JSON string", () => {
    assert.deepEqual(toolClose(end(), undefined, 4, NO_CONTENT), {
      time: 4,
      attributes: { "harnessx.tool.outcome": "executed" },
      detail: { role: "tool", toolCall: call, end: end() },
    });
    const result = (content: string) =>
      toolClose(end({ result: { toolCallId: "c1", name: "search", content, isError: false } }), undefined, 4, CONTENT)
        .attributes["gen_ai.tool.call.result"];
    assert.equal(result('{"hits":2}'), '{"hits":2}');
    assert.equal(result("[1,2]"), "[1,2]");
    assert.equal(result("{not json"), JSON.stringify("{not json"));
    assert.equal(result("[not json"), JSON.stringify("[not json"));
    assert.equal(result("plain"), '"plain"');
    assert.equal(result("42"), '"42"', "JSON that is not an object or a list stays text");
    assert.equal(result("true"), '"true"');
    assert.equal(
      toolClose(end({ result: { toolCallId: "c1", name: "search", isError: false } as never }), undefined, 4, CONTENT)
        .attributes["gen_ai.tool.call.result"],
      '""',
      "a recorded result without content",
    );
    assert.equal(result(""), '""');
  });

  test("a spilled result is shown by reference only", () => {
    const close = toolClose(end(), { resultId: "res_1", bytes: 9000 }, 4, {
      captureContent: true,
      maxContentChars: 100,
    });
    assert.deepEqual(close.attributes, {
      "harnessx.tool.outcome": "executed",
      "harnessx.result.spilled": true,
      "harnessx.result.id": "res_1",
      "harnessx.result.bytes": 9000,
      "gen_ai.tool.call.result": JSON.stringify({ resultId: "res_1", bytes: 9000 }),
    });
    assert.deepEqual(close.detail, {
      role: "tool",
      toolCall: call,
      end: end(),
      spill: { resultId: "res_1", bytes: 9000 },
    });
  });

  test("an error result is an error of its outcome, or tool_error when the tool ran", () => {
    const failed = toolClose(
      end({ outcome: "denied", result: { toolCallId: "c1", name: "search", content: "Error: denied", isError: true } }),
      undefined,
      4,
      NO_CONTENT,
    );
    assert.deepEqual(failed.error, { type: "denied", message: "Error: denied" });
    assert.equal(failed.attributes["error.type"], "denied");
    const ran = toolClose(
      end({ result: { toolCallId: "c1", name: "search", content: "Error: boom", isError: true } }),
      undefined,
      4,
      NO_CONTENT,
    );
    assert.deepEqual(ran.error, { type: "tool_error", message: "Error: boom" });
    const recorded = toolClose(
      end({ outcome: undefined, result: { toolCallId: "c1", name: "search", isError: true } as never }),
      undefined,
      4,
      NO_CONTENT,
    );
    assert.deepEqual(recorded.error, { type: "tool_error", message: "" });
    assert.deepEqual(recorded.attributes, { "error.type": "tool_error" });
    assert.equal(
      toolClose(end({ result: undefined as never }), undefined, 4, CONTENT).attributes["gen_ai.tool.call.result"],
      undefined,
    );
  });

  test("failedClose keeps the detail and sets the error and its type", () => {
    assert.deepEqual(
      failedClose({ detail: { role: "tool", toolCall: call } }, { type: "cancelled", message: "stopped" }, 8),
      {
        detail: { role: "tool", toolCall: call },
        time: 8,
        attributes: { "error.type": "cancelled" },
        error: { type: "cancelled", message: "stopped" },
      },
    );
  });
});
