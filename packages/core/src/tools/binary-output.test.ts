import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { Agent } from "../engine/agent.js";
import { Redactor } from "../redact/redactor.js";
import { renderToolOutput, tool } from "./tool.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";

const SECRET = "api_key=Zq8wLm3pQ7rTx2";

describe("binary tool results reach the model as text or base64, never as numbers", () => {
  test("text bytes in any binary form are their text; other bytes are base64", () => {
    const bytes = Buffer.from(`config\n${SECRET}\n`);
    for (const value of [
      bytes,
      new Uint8Array(bytes),
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      JSON.parse(JSON.stringify(bytes)),
    ]) {
      assert.equal(renderToolOutput(value), `config\n${SECRET}\n`);
    }
    assert.equal(renderToolOutput(Buffer.from([0, 1, 2, 255])), "AAEC/w==");
  });

  test("binary inside an object: text as a string, other bytes as { type, bytes, base64 }", () => {
    const out = JSON.parse(renderToolOutput({ file: Buffer.from(SECRET), image: new Uint8Array([0, 255]) }));
    assert.deepEqual(out, { file: SECRET, image: { type: "Uint8Array", bytes: 2, base64: "AP8=" } });
  });

  test("through a run: the model reads the text, and the redacted event holds no byte array and no secret", async () => {
    const provider = new ScriptedProvider([{ toolCalls: [{ name: "read_file", input: {} }] }, { text: "ok" }], {
      recordRequests: true,
    });
    const agent = new Agent({
      provider,
      tools: [tool({ name: "read_file", description: "reads", execute: () => Buffer.from(`${SECRET}\n`) })],
    });
    const seen = recordEvents(agent);
    await agent.run("read it");
    const sent = (provider.requests[1]!.messages.at(-1)!.content[0] as { content: string }).content;
    assert.equal(sent, `${SECRET}\n`);
    const ended = ofKind(seen, HookEvent.TOOL_CALL_END)[0];
    const recorded = new Redactor().redactToJson(
      { result: ended!.result, rawResult: ended!.rawResult },
      "payload",
      [],
    )!;
    assert.ok(!recorded.includes("Zq8wLm3pQ7rTx2") && !recorded.includes('"data":['), recorded);
    await agent.close();
  });
});
