import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { EventLineTooLongError, MAX_EVENT_LINE_BYTES } from "../format/read-limits.js";
import { parseEventLines } from "../store/event-lines.js";
import { eventLine } from "../test-support/hand-made-run.js";
import { sealedLineFacts, type LineFacts } from "./sealed-lines.js";

const SHA = "a".repeat(64);
const lines = (...text: string[]) => Buffer.from(text.join(""));

/** Kind and ts of each fact, whichever way it was found. */
const brief = (facts: LineFacts[]) =>
  facts.map((f) =>
    "event" in f ? { kind: f.event.kind, ts: f.event.ts, whole: true } : { kind: f.kind, ts: f.ts, whole: false },
  );

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
    assert.deepEqual(
      brief(facts).map((f) => f.kind),
      parseEventLines(content).events.map((e) => e.kind),
    );
    assert.deepEqual(
      brief(facts).map((f) => f.whole),
      [false, true, true, true, true, true, true, false],
    );
  });

  test("a line that is not an event makes it give up, torn lines included", () => {
    const head = '{"v":1,"seq":1,"ts":1,"runId":"r","spanId":null,"parentSpanId":null,"kind":"x","attrs":{';
    // A torn line the writer went on after (two line starts in one line), whatever it ends with.
    const torn = `${head}"note":"cut sh${eventLine("r", 2, "agent_end").trim()}`;
    for (const bad of [
      "not json",
      torn,
      `${torn}}`,
      '{"v":1,"seq":0,"ts":1,"runId":"r","spanId":null,"parentSpanId":null,"kind":"x","attrs":{}}',
      '{"v":1,"seq":1,"ts":1e999,"runId":"r","spanId":null,"parentSpanId":null,"kind":"x","attrs":{}}',
      '{"v":1,"seq":1,"ts":1,"runId":"","spanId":null,"parentSpanId":null,"kind":"x","attrs":{}}',
    ]) {
      const content = lines(eventLine("r", 1, "agent_start"), `${bad}\n`);
      assert.equal(parseEventLines(content).badLines, 1, bad);
      assert.equal(sealedLineFacts(content), undefined, bad);
    }
  });

  test("every plain line is taken from its first bytes, the last one without its newline too", () => {
    const content = lines(
      eventLine("r", 1, "agent_start"),
      eventLine("r", 2, "tool_call_start"),
      eventLine("r", 3, "agent_end").trimEnd(),
    );
    assert.deepEqual(
      brief(sealedLineFacts(content)!),
      [1, 2, 3].map((seq, i) => ({
        kind: ["agent_start", "tool_call_start", "agent_end"][i],
        ts: 1_700_000_000_000 + seq,
        whole: false,
      })),
    );
  });

  test("a line that stops after its first bytes (no closing brace) is decoded, and refused", () => {
    const head =
      '{"v":1,"seq":2,"ts":1,"runId":"r","spanId":null,"parentSpanId":null,"kind":"x","attrs":{"note":"cut sh';
    assert.equal(sealedLineFacts(lines(eventLine("r", 1, "agent_start"), `${head}\n`)), undefined);
  });

  test("a line whose first fields are longer than the bytes read for them (huge ids) is decoded whole", () => {
    assert.deepEqual(
      brief(sealedLineFacts(lines(eventLine(`r${"x".repeat(2000)}`, 1, "agent_start")))!).map((f) => f.whole),
      [true],
    );
  });

  test("a line over the reader's limit is refused, numbered", () => {
    const content = Buffer.concat([
      lines(eventLine("r", 1, "agent_start")),
      Buffer.alloc(MAX_EVENT_LINE_BYTES + 1, 0x20),
      Buffer.from("\n"),
    ]);
    assert.throws(
      () => sealedLineFacts(content),
      (e: unknown) => e instanceof EventLineTooLongError && e.line === 2,
    );
  });

  test("empty lines are skipped, as by the reader", () => {
    assert.deepEqual(
      sealedLineFacts(lines(eventLine("r", 1, "agent_start"), "\n", eventLine("r", 2, "agent_end")))!.length,
      2,
    );
    assert.deepEqual(sealedLineFacts(Buffer.alloc(0)), []);
  });
});
