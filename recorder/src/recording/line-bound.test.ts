// The recorder never writes a line a reader refuses: payloads over inlinePayloadBytes (itself at
// most MAX_INLINE_PAYLOAD_BYTES) go aside, and attributes past their bound are cut.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ScriptedProvider } from "@harnessx/core";
import {
  FlightRecorderExtension,
  MAX_ATTRIBUTE_CHARS,
  MAX_ATTRIBUTES_JSON_CHARS,
  MAX_EVENT_LINE_BYTES,
  MAX_INLINE_PAYLOAD_BYTES,
  openRecording,
  readRun,
} from "../index.js";
import { boundedAttributes } from "./attribute-cut.js";
import { tempDir } from "../../../test/support/system.js";

let dir: string;
let cleanup: () => void;
before(() => ({ dir, cleanup } = tempDir()));
after(() => cleanup());

describe("attributes past their bound", () => {
  test("exactly MAX_ATTRIBUTES_JSON_CHARS are kept as they are; one character more cuts their long texts", () => {
    const json = (chars: number) =>
      JSON.stringify({ toolName: "t", note: "x".repeat(chars - JSON.stringify({ toolName: "t", note: "" }).length) });
    assert.equal(json(MAX_ATTRIBUTES_JSON_CHARS).length, MAX_ATTRIBUTES_JSON_CHARS);
    assert.equal(boundedAttributes(json(MAX_ATTRIBUTES_JSON_CHARS)), undefined);
    const cut = JSON.parse(boundedAttributes(json(MAX_ATTRIBUTES_JSON_CHARS + 1))!) as Record<string, unknown>;
    assert.equal(cut.toolName, "t");
    assert.match(
      String(cut.note),
      new RegExp(`^x{${MAX_ATTRIBUTE_CHARS}}\\.\\.\\. \\[\\d+ characters cut by the recorder\\]$`),
    );
    assert.equal(cut.attrsCut, MAX_ATTRIBUTES_JSON_CHARS + 1);
  });

  test("many texts, each short, that still do not fit: only the top-level scalars stay", () => {
    const attrs = {
      toolName: "t",
      count: 3,
      spanAttributes: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, "v".repeat(60_000)])),
    };
    const cut = JSON.parse(boundedAttributes(JSON.stringify(attrs))!) as Record<string, unknown>;
    assert.deepEqual(Object.keys(cut).sort(), ["attrsCut", "count", "toolName"]);
  });
});

describe("the recorder's lines", () => {
  test("inlinePayloadBytes past MAX_INLINE_PAYLOAD_BYTES is refused at construction", () => {
    assert.throws(
      () => new FlightRecorderExtension({ dir, inlinePayloadBytes: MAX_INLINE_PAYLOAD_BYTES + 1 }),
      /inlinePayloadBytes must be at most 1048576/,
    );
    assert.equal(
      new FlightRecorderExtension({ dir, inlinePayloadBytes: MAX_INLINE_PAYLOAD_BYTES }).options.inlinePayloadBytes,
      MAX_INLINE_PAYLOAD_BYTES,
    );
  });

  test("a run that fails with a 20 MB error message is recorded in lines a reader takes, the message whole in the payload", async () => {
    const message = `upstream said: ${"e".repeat(20_000_000)}`;
    const agent = new Agent({
      provider: new ScriptedProvider([{ error: { status: 400, message } }]),
      extensions: [new FlightRecorderExtension({ dir, inlinePayloadBytes: MAX_INLINE_PAYLOAD_BYTES })],
    });
    const result = await agent.run("fail loudly");
    await agent.close();
    assert.equal(result.status, "failed");
    const read = await readRun(`${dir}/runs/${result.runId}`, { keepText: true });
    const longest = Math.max(...read.text!.split("\n").map((line) => Buffer.byteLength(line)));
    assert.ok(longest <= MAX_EVENT_LINE_BYTES, `longest line ${longest} bytes`);
    const end = read.events.find((e) => e.kind === "agent_end")!;
    assert.match(String(end.attrs.errorMessage), /characters cut by the recorder\]$/);
    await using recording = await openRecording(`${dir}/runs/${result.runId}`);
    const payload = (await recording.payloadOf(end)) as { result: { error: { message: string } } };
    assert.equal(
      payload.result.error.message.length,
      message.length,
      "the payload (stored aside) keeps the whole message",
    );
  });
});
