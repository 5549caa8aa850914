import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider, type ScriptStep } from "../providers/scripted.js";
import { Agent, type AgentOptions } from "./agent.js";
import { echoTool, ofKind, recordEvents } from "../test-support/helpers.js";

function setup(steps: ScriptStep[], options: Partial<AgentOptions> = {}) {
  const provider = new ScriptedProvider(steps, { recordRequests: true });
  const agent = new Agent({ provider, tools: [echoTool], retry: { initialDelayMs: 1 }, ...options });
  const seen = recordEvents(agent);
  return { provider, agent, seen, recoveries: () => ofKind(seen, HookEvent.RECOVERY) };
}

const cutCall = {
  toolCalls: [{ name: "echo", rawInput: '{"text": "ab' }],
  stopReason: "max_tokens",
} as const satisfies ScriptStep;

describe("each recovery has a limit per run", () => {
  test("truncated_tool_call: two larger budgets, then the run fails", async () => {
    const { agent, recoveries } = setup([cutCall, cutCall, cutCall, { text: "never" }], {
      limits: { maxTokens: 1000, maxReplyTokens: 64_000 },
    });
    const result = await agent.run("x");
    assert.equal(result.status, "failed");
    assert.equal(result.error?.code, "truncated_tool_call");
    assert.match(result.error!.message, /still cut off at 4000 tokens after 2 larger budgets/);
    assert.deepEqual(recoveries(), [
      { reason: "truncated_tool_call", attempt: 1, replyBudget: 2000 },
      { reason: "truncated_tool_call", attempt: 2, replyBudget: 4000 },
    ]);
  });

  test("truncated_tool_call: the larger budget stops at maxReplyTokens", async () => {
    const { provider, agent, recoveries } = setup([cutCall, { text: "ok" }], {
      limits: { maxTokens: 1000, maxReplyTokens: 1500 },
    });
    assert.equal((await agent.run("x")).status, "completed");
    assert.deepEqual(recoveries(), [{ reason: "truncated_tool_call", attempt: 1, replyBudget: 1500 }]);
    assert.equal(provider.requests[1]!.maxTokens, 1500);
  });

  test("paused_turn: five continuations, then the run fails", async () => {
    const paused = { text: "more ", stopReason: "pause_turn" } as const satisfies ScriptStep;
    const { agent, recoveries } = setup([paused, paused, paused, paused, paused, paused, { text: "never" }]);
    const result = await agent.run("x");
    assert.equal(result.status, "failed");
    assert.equal(result.error?.code, "paused_turn");
    assert.match(result.error!.message, /paused the turn more than 5 times/);
    assert.deepEqual(
      recoveries().map((r) => r.attempt),
      [1, 2, 3, 4, 5],
    );
  });

  test("truncated_text: three continuations, then the cut text is the answer", async () => {
    const cut = (text: string) => ({ text, stopReason: "max_tokens" }) as const satisfies ScriptStep;
    const { agent, recoveries } = setup([cut("a"), cut("b"), cut("c"), cut("d"), { text: "never" }]);
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    assert.equal(result.text, "abcd");
    assert.deepEqual(
      recoveries(),
      [1, 2, 3].map((attempt) => ({ reason: "truncated_text", attempt, replyBudget: null })),
    );
  });

  test("empty_reply: nudged once; a second empty reply completes the run with no text", async () => {
    const { agent, recoveries } = setup([{ text: "" }, { text: "" }, { text: "never" }]);
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    assert.equal(result.text, "");
    assert.deepEqual(recoveries(), [{ reason: "empty_reply", attempt: 1, replyBudget: null }]);
  });

  test("recoveries of different reasons count apart", async () => {
    const { agent, recoveries } = setup([
      { text: "a", stopReason: "max_tokens" },
      { text: "", stopReason: "max_tokens" },
      { text: "" },
      { text: "b" },
    ]);
    const result = await agent.run("x");
    assert.equal(result.text, "ab");
    assert.deepEqual(
      recoveries().map((r) => [r.reason, r.attempt]),
      [
        ["truncated_text", 1],
        ["truncated_text", 2],
        ["empty_reply", 1],
      ],
    );
  });
});
