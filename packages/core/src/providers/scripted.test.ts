import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Message } from "../types/content.js";
import type { ModelRequest } from "../types/provider.js";
import { ScriptedProvider } from "./scripted.js";

const request = (assistantTurns: number): ModelRequest => {
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "hi" }] }];
  for (let i = 0; i < assistantTurns; i++)
    messages.push(
      { role: "assistant", content: [{ type: "text", text: `turn ${i}` }] },
      { role: "user", content: [{ type: "text", text: "more" }] },
    );
  return { model: "m", system: "", messages, tools: [], maxTokens: 100, stream: false };
};
const textOf = async (provider: ScriptedProvider, r: ModelRequest) =>
  (await provider.complete(r)).content.map((b) => (b.type === "text" ? b.text : "")).join("");

describe("which step answers a request", () => {
  test("by call (default): the next step, whatever the request", async () => {
    const provider = new ScriptedProvider([{ text: "a" }, { text: "b" }]);
    assert.equal(await textOf(provider, request(1)), "a");
    assert.equal(await textOf(provider, request(1)), "b");
  });

  test("by conversation: the step of the request's assistant turns, in any order, as often as asked", async () => {
    const provider = new ScriptedProvider([{ text: "a" }, { text: "b" }, { text: "c" }], { stepBy: "conversation" });
    assert.equal(await textOf(provider, request(2)), "c", "a new process picks up where the conversation stands");
    assert.equal(await textOf(provider, request(0)), "a");
    assert.equal(await textOf(provider, request(2)), "c", "a retried call gets its step again");
    assert.equal(provider.position, 3, "position still counts the calls answered");
    await assert.rejects(provider.complete(request(3)), /has 3 steps; request 4 has none/);
  });
});
