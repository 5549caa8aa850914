import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseEventLines } from "../store/event-lines.js";
import { eventLine } from "../test-support/hand-made-run.js";
import { sealedLineFacts, type LineFacts } from "./sealed-lines.js";

const SHA = "a".repeat(64);
const lines = (...text: string[]) => Buffer.from(text.join(""));

/** Kind and ts of each fact, whichever way it was found. */
const brief = (facts: LineFacts[]) => facts.map((f) => ("event" in f ? { kind: f.event.kind, ts: f.event.ts, whole: true } : { kind: f.kind, ts: f.ts, whole: false }));

// Export reads a verified sealed segment's lines from their first bytes: it must find exactly
// what parsing every line finds, and give up (re-encode) on exactly the lines parsing refuses.
describe("sealedLineFacts", () => {
  test("lines as the recorder writes them are taken from their first bytes; what the totals read is parsed", () => {
    const content = lines(
      eventLine("r", 1, "agent_start", { kind: "nested", note: '"kind":"fake"' }),
      eventLine("r", 2, "tool_call_end", { artifacts: [{ sha256: SHA, bytes: 1, mediaType: "text/plain" }] }),
      eventLine("r", 3, "llm_response", { inputTokens: 5 }),
      eventLine("r", 4, "recorder.dropped", { count: 2 }),
      eventLine("r", 5, "héllo"),
      `{"seq":6,"v":1,"ts":1,"runId":"r","kind":"error","attrs":{}}\n`,
      `{"v":1,"seq":7,"ts":2,"runId":"r","spanId":null,"parentSpanId":null,"kind":"a\\u0062","attrs":{}}\n`,
      eventLine("r", 8, "agent_end"),
    );
    const facts = sealedLineFacts(content)!;
    assert.deepEqual(brief(facts).map((f) => f.kind), parseEventLines(content).events.map((e) => e.kind));
    assert.deepEqual(brief(facts).map((f) => f.whole), [false, true, true, true, true, true, true, false]);
  });

  test("a line that is not an event makes it give up, torn lines included", () => {
    const head = '{"v":1,"seq":1,"ts":1,"runId":"r","spanId":null,"parentSpanId":null,"kind":"x","attrs":{';
    // A torn line the writer went on after (two line starts in one line), whatever it ends with.
    const torn = `${head}"note":"cut sh${eventLine("r", 2, "agent_end").trim()}`;
    for (const bad of ["not json", torn, `${torn}}`, '{"v":1,"seq":0,"ts":1,"runId":"r","spanId":null,"parentSpanId":null,"kind":"x","attrs":{}}', '{"v":1,"seq":1,"ts":1e999,"runId":"r","spanId":null,"parentSpanId":null,"kind":"x","attrs":{}}', '{"v":1,"seq":1,"ts":1,"runId":"","spanId":null,"parentSpanId":null,"kind":"x","attrs":{}}']) {
      const content = lines(eventLine("r", 1, "agent_start"), `${bad}\n`);
      assert.equal(parseEventLines(content).badLines, 1, bad);
      assert.equal(sealedLineFacts(content), undefined, bad);
    }
  });

  test("empty lines are skipped, as by the reader", () => {
    assert.deepEqual(sealedLineFacts(lines(eventLine("r", 1, "agent_start"), "\n", eventLine("r", 2, "agent_end")))!.length, 2);
    assert.deepEqual(sealedLineFacts(Buffer.alloc(0)), []);
  });
});
