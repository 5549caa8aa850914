import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ALL_HOOK_EVENTS } from "@harnessx/core/extension";
import { countEvent, emptySummary, KINDS_COUNTED_BY_ATTRS } from "./run-summary.js";

/** Attributes that would change a total, were they read: tokens, a drop's count, a failed outcome. */
const LOUD_ATTRS = { inputTokens: 7, outputTokens: 9, count: 3, outcome: "denied", isError: true, status: "failed" };

function counted(kind: string, attrs: Record<string, unknown>) {
  const summary = emptySummary();
  countEvent(summary, { kind, attrs });
  return summary;
}

describe("the one summary counter", () => {
  const kinds = [...ALL_HOOK_EVENTS, "recorder.dropped", "recorder.recovered"];

  test("a kind outside KINDS_COUNTED_BY_ATTRS is counted alike whatever its attributes", () => {
    for (const kind of kinds.filter((k) => !KINDS_COUNTED_BY_ATTRS.has(k)))
      assert.deepEqual(counted(kind, LOUD_ATTRS), counted(kind, {}), kind);
  });

  test("every kind in KINDS_COUNTED_BY_ATTRS has a total its attributes change", () => {
    for (const kind of KINDS_COUNTED_BY_ATTRS) assert.notDeepEqual(counted(kind, LOUD_ATTRS), counted(kind, {}), kind);
  });

  test("totals: tokens from replies, tool calls, drops, and errors from either judgement", () => {
    const summary = emptySummary();
    for (const [kind, attrs] of [
      ["llm_response", { inputTokens: 10, outputTokens: 4 }],
      ["llm_response", { inputTokens: "x", outputTokens: 1 }],
      ["tool_call_end", { outcome: "executed", isError: false }],
      ["tool_call_end", { outcome: "timed_out" }],
      ["error", {}],
      ["recorder.dropped", { count: 5 }],
    ] as const)
      countEvent(summary, { kind, attrs });
    assert.deepEqual(summary, {
      events: 6,
      byKind: { llm_response: 2, tool_call_end: 2, error: 1, "recorder.dropped": 1 },
      inputTokens: 10,
      outputTokens: 5,
      modelCalls: 2,
      toolCalls: 2,
      errors: 2,
      dropped: 5,
    });
  });
});
