import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { RecordedEvent } from "../format/event.js";
import { eventLines } from "./event-lines.js";

/** Events as the recorder writes them (payload last), with attributes and payloads that may hold `payload` keys at any depth. */
const eventArb = fc.record({
  seq: fc.integer({ min: 1, max: 1e6 }),
  kind: fc.constantFrom("tool_call_end", "llm_request", "custom", "error"),
  attrs: fc.oneof(
    fc.dictionary(
      fc.constantFrom("payload", "toolName", "x", 'payload"', ',"payload":'),
      fc.jsonValue({ maxDepth: 3 }),
    ),
    fc.constant({ nested: { payload: { payload: 1 } }, payload: "x" }),
  ),
  payload: fc.option(
    fc.jsonValue({ maxDepth: 3 }).map((v) => ({ result: v, payload: { payload: v } })),
    { nil: undefined },
  ),
  redacted: fc.option(fc.constantFrom(["payload"], ["payload.result"], ["attrs.payload"]), { nil: undefined }),
});

function lineOf(e: {
  seq: number;
  kind: string;
  attrs: Record<string, unknown>;
  payload?: unknown;
  redacted?: readonly string[];
}): string {
  const { payload, ...head } = {
    v: 1,
    seq: e.seq,
    ts: 1_700_000_000_000 + e.seq,
    runId: "run_x",
    spanId: null,
    parentSpanId: null,
    kind: e.kind,
    attrs: e.attrs,
    ...(e.redacted ? { redacted: e.redacted } : {}),
    payload: e.payload,
  };
  return payload === undefined
    ? JSON.stringify(head)
    : `${JSON.stringify(head).slice(0, -1)},"payload":${JSON.stringify(payload)}}`;
}

const withoutPayload = (e: RecordedEvent): RecordedEvent => {
  const { payload: _payload, ...rest } = e;
  return rest;
};

describe("reading lines without their payloads", () => {
  test("gives every event as a whole read does, but for the payloads it was told to skip", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 20 }), (events) => {
        const bytes = Buffer.from(`${events.map(lineOf).join("\n")}\n`);
        const whole = [...eventLines(bytes)] as RecordedEvent[];
        assert.equal(whole.length, events.length);
        assert.deepEqual([...eventLines(bytes, true)], whole.map(withoutPayload));
        // A test picks which payloads to skip: here, all but those of errors.
        const keepErrors = (e: RecordedEvent) => e.kind !== "error";
        assert.deepEqual(
          [...eventLines(bytes, keepErrors)],
          whole.map((e) => (keepErrors(e) ? withoutPayload(e) : e)),
        );
      }),
    );
  });

  test("a line that is not an event is still reported as one, with or without skipping", () => {
    const bytes = Buffer.from(
      `${lineOf({ seq: 1, kind: "custom", attrs: {}, payload: { a: 1 } })}\n{"v":1,"payload":{"a":1}}\nnot json\n`,
    );
    const skipped = [...eventLines(bytes, true)];
    assert.deepEqual(
      skipped.map((e) => ("kind" in e ? e.kind : `bad line ${e.line}`)),
      ["custom", "bad line 2", "bad line 3"],
    );
    assert.deepEqual(skipped.slice(1), [...eventLines(bytes)].slice(1));
  });
});
