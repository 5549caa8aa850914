import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { Agent, ScriptedProvider, tool, type Message, type ModelRequest } from "@harnessx/core";
import { HookEvent, type RedactionOptions } from "@harnessx/core/extension";
import { ResultSpillExtension } from "./result-spill-extension.js";
import { tempStore } from "./test-support/spill-harness.js";

const pem = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
}).privateKey;
const keyLines = pem.trim().split("\n");
const body = keyLines.slice(1, -1);
const logLines = Array.from(
  { length: 400 },
  (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z worker ${i} processed batch ${i * 7}`,
);
logLines.splice(200, 0, ...keyLines);
logLines.splice(100, 0, "password=Hunter2-in-spill");
const text = logLines.join("\n");
const keyAt = logLines.indexOf(keyLines[0]) + 1;

function lastToolResult(request: ModelRequest): string {
  const last = request.messages[request.messages.length - 1] as Message;
  const block = last.content.find((b) => b.type === "tool_result");
  return block?.type === "tool_result" ? block.content : "";
}
/** Whole body lines (or 20 characters of one) found in `out`. */
const keyLinesIn = (out: string) =>
  body.filter((line) => out.includes(line.slice(0, 20)) || out.includes(line.slice(-20)));

async function readThrough(calls: Array<Record<string, unknown>>, redact?: RedactionOptions | false) {
  const tmp = tempStore();
  let resultId = "";
  const steps = [
    { toolCalls: [{ name: "dump", input: {} }] },
    ...calls.map((input, i) => (request: ModelRequest) => {
      if (i === 0) resultId = JSON.parse(lastToolResult(request)).resultId;
      return { toolCalls: [{ name: "read_result", input: { resultId, ...input } }] };
    }),
    { text: "done" },
  ];
  const provider = new ScriptedProvider(steps, { recordRequests: true });
  const agent = new Agent({
    provider,
    redact,
    tools: [tool({ name: "dump", description: "dumps the logs", execute: () => text })],
    extensions: [new ResultSpillExtension({ store: tmp.store, thresholdBytes: 4_000 })],
  });
  const recorded: string[] = [];
  agent.hooks.on(
    HookEvent.TOOL_CALL_END,
    (ctx) => void recorded.push(agent.redactor.redactToJson(ctx.data, "payload", []) ?? ""),
  );
  try {
    assert.equal((await agent.run("read the logs")).status, "completed");
    const answers = provider.requests.slice(2).map(lastToolResult);
    return { answers, recorded };
  } finally {
    await agent.close();
    tmp.cleanup();
  }
}

describe("read_result cuts never show key lines without the line that names them", () => {
  test("two lines from the middle, part of a line, and search hits: key lines are replaced for the model and the recording", async () => {
    const middle = body[12];
    const charsStart = text.indexOf(middle) + 10;
    const { answers, recorded } = await readThrough([
      { op: "slice", unit: "lines", start: keyAt + 5, count: 2 },
      { op: "slice", unit: "chars", start: charsStart, count: 30 },
      { op: "search", pattern: middle.slice(20, 36) },
      { op: "search", pattern: "^[A-Za-z0-9+/]{64}$", regex: true },
    ]);
    for (const [i, answer] of answers.entries())
      assert.deepEqual(keyLinesIn(answer), [], `answer ${i}: ${answer.slice(0, 400)}`);
    assert.match(answers[0], /\[REDACTED:privatekey\]/);
    for (const event of recorded) assert.deepEqual(keyLinesIn(event), []);
  });

  test("what a cut shows whole is not replaced for the model: a key with its BEGIN and END lines, a value with its key", async () => {
    const { answers, recorded } = await readThrough([
      { op: "slice", start: keyAt - 1, count: keyLines.length + 2 },
      { op: "search", pattern: "Hunter2" },
    ]);
    assert.equal(keyLinesIn(answers[0]).length, body.length, "the model reads the real data");
    assert.match(answers[1], /password=Hunter2-in-spill/);
    for (const event of recorded)
      assert.ok(
        keyLinesIn(event).length === 0 && !event.includes("Hunter2-in-spill"),
        "the recording redacts it whole",
      );
  });

  test("with redaction off, cuts show the text as stored", async () => {
    const { answers } = await readThrough([{ op: "slice", start: keyAt + 5, count: 2 }], false);
    assert.equal(keyLinesIn(answers[0]).length, 2);
  });
});

describe("every read_result answer is bounded, errors included", () => {
  test("a 2 MB pattern and a 500 KB invalid regular expression come back within maxOutputChars", async () => {
    const { answers } = await readThrough([
      { op: "search", pattern: "no such text ".repeat(160_000) },
      { op: "search", pattern: `(${"a".repeat(500_000)}`, regex: true },
    ]);
    for (const answer of answers) assert.ok(answer.length <= 12_000 + 100, `${answer.length} characters`);
    assert.match(answers[0], /no match for "no such text .*… \(2080000 characters\)/);
    assert.match(answers[1], /not a valid JavaScript regular expression: Unterminated group/);
  });
});
