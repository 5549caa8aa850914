import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { MappedSpan } from "./span-collector.js";
import { mapSpans } from "./map-spans.js";
import type { TraceEvent } from "./span-model.js";
import { SpanStream } from "./span-stream.js";

const tool = (id: string) => ({ id, name: "search", input: {} });
let ts = 1000;
const ev = (kind: string, data: unknown): TraceEvent => ({ kind, ts: ts++, runId: "run_1", data }) as TraceEvent;
const request = {
  model: "m",
  maxTokens: 10,
  stream: false,
  messageCount: 1,
  toolCount: 0,
  request: { model: "m", messages: [], tools: [], maxTokens: 10, stream: false },
};
const reply = {
  response: { content: [], id: "r1" },
  provider: "acme",
  model: "m",
  usage: { inputTokens: 3, outputTokens: 4 },
  stopReason: "end",
  durationMs: 2,
};

/** A run with a model call, a tool call that ends, one whose id is reused before it ends (never ended), and no run end. */
const events: TraceEvent[] = [
  ev("agent_start", { runId: "run_1", input: "", model: "m", resumed: false }),
  ev("llm_request", request),
  ev("llm_response", reply),
  ev("tool_call_start", { toolCall: tool("c1") }),
  ev("tool_call_start", { toolCall: tool("c2") }),
  ev("tool_call_start", { toolCall: tool("c2") }),
  ev("tool_call_end", {
    toolCall: tool("c1"),
    result: { toolCallId: "c1", name: "search", content: "", isError: false },
    durationMs: 1,
    outcome: "executed",
  }),
];

describe("spans streamed as they end", () => {
  test("hand over what mapSpans returns, each span once, with the order it opened in", () => {
    const handed: Array<[MappedSpan, number]> = [];
    const stream = new SpanStream({ agent: { name: "unit" }, keepDetail: false }, (span, order) =>
      handed.push([span, order]),
    );
    for (const e of events) stream.push(e);
    stream.end();
    const whole = mapSpans(events, { agent: { name: "unit" }, keepDetail: false });
    assert.equal(handed.length, whole.length);
    assert.deepEqual(
      [...handed].sort((a, b) => a[1] - b[1]).map(([span]) => span),
      whole,
    );
    assert.deepEqual(
      handed.map(([span]) => span.role),
      ["chat", "tool", "tool", "agent", "tool"],
      "as they end; the reused call's first span never ends and comes last",
    );
    assert.equal(
      whole[1]!.attributes["gen_ai.provider.name"],
      "acme",
      "the provider of the first reply, as mapSpans reads it",
    );
  });

  test("no events: nothing is handed over", () => {
    const handed: MappedSpan[] = [];
    const stream = new SpanStream({}, (span) => handed.push(span));
    stream.end();
    assert.deepEqual(handed, []);
  });
});
