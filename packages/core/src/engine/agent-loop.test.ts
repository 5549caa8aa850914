// The agent loop at work: tool calls run end to end (results back to the model, usage summed,
// concurrency, order, memory kept byte for byte), streaming, and cancellation.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "./agent.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { echoTool, ofKind, recordEvents, scriptedAgent } from "../test-support/helpers.js";

describe("the loop runs tool calls end to end", () => {
  test("a tool call's result reaches the model and the final text is returned", async () => {
    const provider = new ScriptedProvider(
      [{ toolCalls: [{ name: "echo", input: { text: "hi" } }] }, { text: "all done" }],
      { recordRequests: true },
    );
    const agent = new Agent({ provider, tools: [echoTool] });
    const result = await agent.run("say hi");
    assert.equal(result.status, "completed");
    assert.equal(result.text, "all done");
    const second = provider.requests[1];
    const toolMessage = second.messages.at(-1)!;
    assert.deepEqual(toolMessage.content, [
      { type: "tool_result", toolCallId: "call_1_1", name: "echo", content: "echo: hi", isError: false },
    ]);
    assert.equal(result.modelCalls, 2);
  });

  test("usage is summed over every model call of the run", async () => {
    const agent = scriptedAgent(
      [
        {
          toolCalls: [{ name: "echo", input: { text: "a" } }],
          usage: { inputTokens: 10, outputTokens: 3, cacheReadTokens: 4 },
        },
        { text: "ok", usage: { inputTokens: 20, outputTokens: 5, cacheReadTokens: 6, cacheWriteTokens: 1 } },
      ],
      { tools: [echoTool] },
    );
    const result = await agent.run("x");
    assert.deepEqual(result.usage, {
      inputTokens: 30,
      outputTokens: 8,
      cacheReadTokens: 10,
      cacheWriteTokens: 1,
      cost: { usd: null, unpricedCalls: 2 },
    });
  });

  test("the system prompt names every tool with its description, after the configured system text", async () => {
    const provider = new ScriptedProvider([{ text: "ok" }], { recordRequests: true });
    const other = tool({ name: "lookup", description: "lookup finds an order by id.", execute: () => "" });
    await new Agent({ provider, system: "You are terse.", tools: [echoTool, other] }).run("x");
    const system = provider.requests[0].system;
    assert.ok(system.startsWith("You are terse."));
    assert.match(
      system,
      /Available tools[\s\S]*- echo: echo returns its text argument\.[\s\S]*- lookup: lookup finds an order by id\./,
    );
  });

  test("concurrent tools requested in one turn overlap; serial ones run one at a time in request order", async () => {
    const log: string[] = [];
    const slow = (name: string, concurrent: boolean) =>
      tool({
        name,
        description: name,
        concurrent,
        execute: async ({ id }) => {
          log.push(`start ${name}${String(id)}`);
          await new Promise((r) => setTimeout(r, 30));
          log.push(`end ${name}${String(id)}`);
          return "ok";
        },
      });
    const agent = scriptedAgent(
      [
        {
          toolCalls: [
            { name: "par", input: { id: 1 } },
            { name: "par", input: { id: 2 } },
          ],
        },
        {
          toolCalls: [
            { name: "ser", input: { id: 1 } },
            { name: "ser", input: { id: 2 } },
          ],
        },
        { text: "done" },
      ],
      { tools: [slow("par", true), slow("ser", false)] },
    );
    await agent.run("x");
    assert.deepEqual(log.slice(0, 2), ["start par1", "start par2"], "both concurrent calls start before either ends");
    assert.deepEqual(log.slice(4), ["start ser1", "end ser1", "start ser2", "end ser2"]);
  });

  test("results keep request order even when concurrent calls finish out of order", async () => {
    const t = tool({
      name: "wait",
      description: "w",
      concurrent: true,
      execute: async ({ ms }) => {
        await new Promise((r) => setTimeout(r, Number(ms)));
        return `waited ${String(ms)}`;
      },
    });
    const provider = new ScriptedProvider(
      [
        {
          toolCalls: [
            { name: "wait", input: { ms: 40 } },
            { name: "wait", input: { ms: 1 } },
          ],
        },
        { text: "ok" },
      ],
      { recordRequests: true },
    );
    await new Agent({ provider, tools: [t] }).run("x");
    const results = provider.requests[1].messages
      .at(-1)!
      .content.map((b) => (b.type === "tool_result" ? b.content : ""));
    assert.deepEqual(results, ["waited 40", "waited 1"]);
  });

  test("conversation memory keeps reasoning and provider-opaque blocks byte for byte", async () => {
    const opaque = { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4a" };
    const provider = new ScriptedProvider(
      [
        {
          reasoning: { text: "think", signature: "sig-abc" },
          providerBlocks: [{ provider: "anthropic", data: opaque }],
          toolCalls: [{ name: "echo", input: { text: "q" } }],
        },
        { text: "ok" },
      ],
      { recordRequests: true },
    );
    const agent = new Agent({ provider, tools: [echoTool] });
    await agent.run("x");
    const assistant = provider.requests[1].messages[1];
    assert.equal(assistant.role, "assistant");
    assert.deepEqual(assistant.content.slice(0, 2), [
      { type: "reasoning", text: "think", signature: "sig-abc" },
      { type: "provider", provider: "anthropic", data: opaque },
    ]);
    assert.equal(
      JSON.stringify(agent.memory.messages[1].content[1]),
      JSON.stringify({ type: "provider", provider: "anthropic", data: opaque }),
    );
  });
});

describe("streaming and cancellation", () => {
  test("runStream yields text deltas, tool call start/end and the result, in order", async () => {
    const agent = scriptedAgent(
      [{ toolCalls: [{ name: "echo", input: { text: "a" } }] }, { text: "The answer is forty-two, said the agent." }],
      { tools: [echoTool] },
    );
    const stream = agent.runStream("x");
    const types: string[] = [];
    let text = "";
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === "text_delta") text += e.text;
    }
    assert.equal(text, "The answer is forty-two, said the agent.");
    assert.ok(types.filter((t) => t === "text_delta").length > 1, "text arrives in several deltas");
    assert.deepEqual(
      types.filter((t) => t !== "text_delta"),
      ["tool_call_start", "tool_call_end", "result"],
    );
    assert.equal((await stream.result).status, "completed");
  });

  test("a waiting event reports a retry pause on the stream", async () => {
    const agent = new Agent({
      provider: new ScriptedProvider([{ error: { status: 429, retryAfter: 1.2 } }, { text: "ok" }]),
    });
    const waits: number[] = [];
    for await (const e of agent.runStream("x")) if (e.type === "waiting") waits.push(e.seconds);
    assert.deepEqual(waits, [0, 1]);
  });

  test("aborting the signal cancels the run; AGENT_END still fires", async () => {
    const slow = tool({
      name: "slow",
      description: "slow",
      execute: (_i, { signal }) =>
        new Promise((_r, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))),
    });
    const agent = scriptedAgent([{ toolCalls: [{ name: "slow" }] }, { text: "never" }], { tools: [slow] });
    const seen = recordEvents(agent);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const result = await agent.run("x", { signal: controller.signal });
    assert.equal(result.status, "cancelled");
    assert.equal(ofKind(seen, HookEvent.AGENT_END).length, 1);
  });

  test("a stream that cannot start throws from its iteration and its result, never as an unhandled rejection", async () => {
    const agent = scriptedAgent([{ text: "a", delayMs: 20 }]);
    const first = agent.run("x");
    const stream = agent.runStream("y");
    await assert.rejects(async () => {
      for await (const _ of stream) void _;
    }, /already running/);
    await assert.rejects(stream.result, /already running/);
    await first;
  });

  test("one turn at a time: a second run while one is active is refused", async () => {
    const agent = scriptedAgent([{ text: "a", delayMs: 20 }, { text: "b" }]);
    const first = agent.run("x");
    await assert.rejects(agent.run("y"), /already running/);
    await first;
    assert.equal((await agent.run("y")).text, "b");
  });
});
