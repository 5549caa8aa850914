import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RunError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider, type ScriptStep } from "../providers/scripted.js";
import { Agent, type AgentOptions } from "./agent.js";
import { echoTool, ofKind, recordEvents } from "../test-support/helpers.js";

function setup(steps: ScriptStep[], options: Partial<AgentOptions> = {}) {
  const provider = new ScriptedProvider(steps, { recordRequests: true });
  const agent = new Agent({ provider, tools: [echoTool], retry: { initialDelayMs: 1 }, ...options });
  const seen = recordEvents(agent);
  return { provider, agent, seen, reasons: () => ofKind(seen, HookEvent.RECOVERY).map((r) => r.reason) };
}

const echo = (text: string) => ({ toolCalls: [{ name: "echo", input: { text } }] });

describe("each recovery is observable on the hook bus", () => {
  test("iteration_limit: one final call without tools", async () => {
    const { provider, agent, reasons } = setup([echo("1"), echo("2"), { text: "final answer" }], {
      limits: { maxIterations: 2 },
    });
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    assert.equal(result.text, "final answer");
    assert.deepEqual(reasons(), ["iteration_limit"]);
    assert.equal(provider.requests[2].tools.length, 0);
    assert.equal(provider.requests[1].tools.length, 1);
  });

  test("429 with Retry-After is retried after the server's delay (RETRY)", async () => {
    const { agent, seen } = setup([{ error: { status: 429, retryAfter: 0.05, message: "slow down" } }, { text: "ok" }]);
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    const retry = ofKind(seen, HookEvent.RETRY)[0];
    assert.equal(retry.target, "model");
    assert.equal(retry.delayMs, 50);
    assert.equal(retry.attempt, 1);
  });

  test("5xx is retried with backoff; a 400 is not retried", async () => {
    const ok = setup([{ error: { status: 503 } }, { error: { status: 500 } }, { text: "ok" }]);
    assert.equal((await ok.agent.run("x")).status, "completed");
    assert.equal(ofKind(ok.seen, HookEvent.RETRY).length, 2);
    const bad = setup([{ error: { status: 400, message: "bad request" } }, { text: "never" }]);
    const result = await bad.agent.run("x");
    assert.equal(result.status, "failed");
    assert.equal(ofKind(bad.seen, HookEvent.RETRY).length, 0);
  });

  test("truncated_text: a reply cut at the budget is continued and joined", async () => {
    const { provider, agent, reasons } = setup([
      { text: "The answer is ", stopReason: "max_tokens" },
      { text: "forty-two." },
    ]);
    const result = await agent.run("x");
    assert.equal(result.text, "The answer is forty-two.");
    assert.deepEqual(reasons(), ["truncated_text"]);
    assert.match(JSON.stringify(provider.requests[1].messages.at(-1)), /cut off/);
  });

  test("truncated_tool_call: a cut tool call is asked again with a larger budget", async () => {
    const { provider, agent, seen } = setup(
      [
        { toolCalls: [{ name: "echo", rawInput: '{"text": "ab' }], stopReason: "max_tokens" },
        echo("ab"),
        { text: "ok" },
      ],
      { limits: { maxTokens: 1000 } },
    );
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    const recovery = ofKind(seen, HookEvent.RECOVERY)[0];
    assert.deepEqual(recovery, { reason: "truncated_tool_call", attempt: 1, replyBudget: 2000 });
    assert.equal(provider.requests[1].maxTokens, 2000);
    assert.equal(provider.requests[1].messages.length, 1, "the cut reply was not stored");
  });

  test("empty_reply: an empty reply is nudged once", async () => {
    const { agent, reasons } = setup([{ text: "" }, { text: "here it is" }]);
    const result = await agent.run("x");
    assert.equal(result.text, "here it is");
    assert.deepEqual(reasons(), ["empty_reply"]);
  });

  test("malformed_tool_input: unreadable arguments are asked for again once, then become an error result", async () => {
    const once = setup([{ toolCalls: [{ name: "echo", rawInput: "{text: oops}" }] }, echo("fine"), { text: "ok" }]);
    assert.equal((await once.agent.run("x")).status, "completed");
    assert.deepEqual(once.reasons(), ["malformed_tool_input"]);
    assert.equal(ofKind(once.seen, HookEvent.TOOL_CALL_END)[0].result.content, "echo: fine");

    const twice = setup([
      { toolCalls: [{ name: "echo", rawInput: "{bad" }] },
      { toolCalls: [{ name: "echo", rawInput: "{bad" }] },
      { text: "gave up" },
    ]);
    assert.equal((await twice.agent.run("x")).status, "completed");
    const end = ofKind(twice.seen, HookEvent.TOOL_CALL_END)[0];
    assert.equal(end.outcome, "invalid_input");
    assert.match(end.result.content, /could not read the arguments/);
  });

  test("context_overflow: the history is condensed and the call repeated", async () => {
    const { provider, agent, seen, reasons } = setup([
      echo("1"),
      echo("2"),
      echo("3"),
      { error: { status: 400, kind: "context_overflow", message: "prompt is too long" } },
      { text: "fits now" },
    ]);
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    assert.deepEqual(reasons(), ["context_overflow"]);
    const condensed = ofKind(seen, HookEvent.CONTEXT_CONDENSED)[0];
    assert.ok(condensed.messagesDropped > 0);
    assert.ok(provider.requests[4].messages.length < provider.requests[3].messages.length);
    assert.equal(provider.requests[4].messages[0].role, "user");
  });

  test("context_overflow_spill: a history too short to condense has its large tool results cut", async () => {
    const { tool } = await import("../tools/tool.js");
    const big = tool({ name: "big", description: "b", execute: () => "y".repeat(10_000) });
    const { provider, agent, reasons } = setup(
      [{ toolCalls: [{ name: "big" }] }, { error: { status: 400, kind: "context_overflow" } }, { text: "ok" }],
      { tools: [big] },
    );
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    assert.deepEqual(reasons(), ["context_overflow_spill"]);
    const sent = provider.requests[2].messages.at(-1)!.content[0] as { content: string };
    assert.ok(sent.content.length < 1200);
    assert.match(sent.content, /characters removed to fit the context window/);
  });

  test("a history over the context budget is condensed before the call (CONTEXT_CONDENSED)", async () => {
    const steps = Array.from({ length: 12 }, (_, i) => echo(`message number ${i} `.repeat(20)));
    const { provider, agent, seen } = setup([...steps, { text: "done" }], {
      context: { contextBudgetTokens: 600 },
      limits: { repetition: false },
    });
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    assert.ok(ofKind(seen, HookEvent.CONTEXT_CONDENSED).length >= 1);
    const last = provider.requests.at(-1)!;
    assert.ok(last.messages.length < 25, `history stays bounded (${last.messages.length} messages)`);
    const first = last.messages[0].content[0];
    assert.equal(first.type === "text" && first.text, "x", "the first user message is kept");
  });

  test("REPETITION: the same call repeated threshold times is stopped with a final call without tools", async () => {
    const { provider, agent, seen } = setup([echo("same"), echo("same"), echo("same"), { text: "stopping" }], {
      limits: { repetition: { threshold: 3 } },
    });
    const result = await agent.run("x");
    assert.equal(result.text, "stopping");
    assert.deepEqual(ofKind(seen, HookEvent.REPETITION), [{ period: 1, laps: 3, tool: "echo" }]);
    assert.equal(provider.requests[3].tools.length, 0);
  });

  test("REPETITION by default: three repeats go on, the fourth is stopped (threshold 4)", async () => {
    const three = setup([echo("same"), echo("same"), echo("same"), { text: "done" }]);
    assert.equal((await three.agent.run("x")).text, "done");
    assert.deepEqual(ofKind(three.seen, HookEvent.REPETITION), []);
    assert.equal(three.provider.requests[3].tools.length, 1, "tools are still offered after three repeats");

    const four = setup([echo("same"), echo("same"), echo("same"), echo("same"), { text: "stopping" }]);
    assert.equal((await four.agent.run("x")).text, "stopping");
    assert.deepEqual(ofKind(four.seen, HookEvent.REPETITION), [{ period: 1, laps: 4, tool: "echo" }]);
    assert.equal(four.provider.requests[4].tools.length, 0);
  });

  test("no_final_answer: tool calls in reply to the final call fail the run with a typed error, not an empty completion", async () => {
    const { agent, seen, reasons } = setup([echo("same"), echo("same"), echo("same"), echo("same")], {
      limits: { repetition: { threshold: 3 } },
    });
    const result = await agent.run("x");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof RunError);
    assert.equal(result.error.code, "no_final_answer");
    assert.match(result.error.message, /asked for 1 more tool call\(s\) .*\(it repeated the same tool calls 3 times\)/);
    assert.equal(result.text, "");
    assert.deepEqual(reasons(), ["no_final_answer"]);
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END).length, 3, "the calls in the final reply never run");
    assert.equal(ofKind(seen, HookEvent.AGENT_END)[0].result.status, "failed");
  });

  test("no_final_answer: the failed run keeps the last text the model wrote", async () => {
    const noted = (text: string) => ({
      text: "Found 3 matches so far.",
      toolCalls: [{ name: "echo", input: { text } }],
    });
    const { agent, reasons } = setup(
      [noted("same"), noted("same"), noted("same"), { toolCalls: [{ name: "echo", input: { text: "more" } }] }],
      { limits: { repetition: { threshold: 3 } } },
    );
    const result = await agent.run("x");
    assert.equal(result.status, "failed");
    assert.equal(result.error?.code, "no_final_answer");
    assert.equal(result.text, "Found 3 matches so far.");
    assert.deepEqual(reasons(), ["no_final_answer"]);
  });

  test("TODOS_UPDATED: the opt-in write_todos tool reports the list with counts", async () => {
    const todos = [
      { content: "read logs", status: "completed" },
      { content: "fix bug", status: "in_progress" },
      { content: "write test", status: "pending" },
    ];
    const { agent, seen } = setup([{ toolCalls: [{ name: "write_todos", input: { todos } }] }, { text: "working" }], {
      todos: true,
    });
    await agent.run("x");
    assert.deepEqual(ofKind(seen, HookEvent.TODOS_UPDATED), [{ todos, completed: 1, total: 3, inProgress: "fix bug" }]);
  });

  test("unfinished_plan: an empty stop with open todos is asked once to finish", async () => {
    const todos = [{ content: "step", status: "pending" }];
    const { agent, reasons } = setup(
      [
        { toolCalls: [{ name: "write_todos", input: { todos } }] },
        { text: "" },
        { text: "" },
        { text: "done, step left" },
      ],
      { todos: true },
    );
    const result = await agent.run("x");
    assert.deepEqual(reasons(), ["empty_reply", "unfinished_plan"]);
    assert.equal(result.text, "done, step left");
  });

  test("paused_turn and reply_limit are recovered", async () => {
    const { provider, agent, reasons } = setup(
      [
        { error: { status: 400, kind: "reply_limit", limit: 512 } },
        { text: "part one. ", stopReason: "pause_turn" },
        { text: "part two." },
      ],
      { limits: { maxTokens: 4096 } },
    );
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    assert.deepEqual(reasons(), ["reply_limit", "paused_turn"]);
    assert.equal(result.text, "part one. part two.");
    assert.equal(provider.requests[1].maxTokens, 512);
  });
});
