// Where a limit's edge lies: a limit reached exactly is reached, and only working time counts
// toward maxWallTimeMs (a run waiting for a human is not working). The clock is a fake one, moved
// by the test: no timing decides these tests.
import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";
import { Agent } from "@harnessx/core";
import { HookEvent } from "@harnessx/core/extension";
import { ScriptedProvider, type ScriptedReply, type ScriptStep } from "@harnessx/core";
import { echoTool, ofKind, recordEvents } from "@harnessx/core/test-support";
import { tool } from "@harnessx/core";
import { budgetExtension, type BudgetOptions } from "./budget-extension.js";

/** $250 per million input tokens: a call of 1,000 input tokens costs $0.25, a sum binary floating point holds exactly. */
const PRICES = { "priced-model": { inputPerMTok: 250, outputPerMTok: 0 } };
const QUARTER: ScriptedReply["usage"] = { inputTokens: 1_000, outputTokens: 0 };

/** A model that calls echo `calls` times, then answers; each call costs $0.25 and 1,000 tokens. */
const looping = (calls: number): ScriptStep[] => [
  ...Array.from(
    { length: calls },
    (_, i): ScriptStep => ({ toolCalls: [{ name: "echo", input: { text: `step ${i}` } }], usage: QUARTER }),
  ),
  { text: "final answer", usage: QUARTER },
];

function budgeted(budget: BudgetOptions, steps: ScriptStep[], tools = [echoTool]) {
  const provider = new ScriptedProvider(steps, { recordRequests: true });
  const agent = new Agent({
    pricing: { prices: PRICES },
    provider,
    tools,
    extensions: [budgetExtension(budget)],
    model: "priced-model",
  });
  return { agent, provider, seen: recordEvents(agent) };
}

const budgetStops = (seen: ReturnType<typeof recordEvents>) =>
  ofKind(seen, HookEvent.RECOVERY).filter((r) => r.reason === "budget_exhausted");

describe("a limit reached exactly is reached", () => {
  // Two calls spend exactly the limit: the third is the last, offered no tools. Were the limit
  // only exceeded (`>` for `>=`), the third call would still be offered them.
  const cases: Array<[string, BudgetOptions, RegExp]> = [
    ["cost", { maxCostUsd: 0.5 }, /^it spent \$0\.5000 of its \$0\.5 budget$/],
    ["tokens", { maxTokens: 2_000 }, /^it used 2000 of its 2000 tokens$/],
  ];
  for (const [limit, budget, detail] of cases) {
    test(`on ${limit}: two calls of a quarter each reach a limit of a half`, async () => {
      const { agent, provider, seen } = budgeted(budget, looping(2));
      const result = await agent.run("go");
      assert.equal(result.status, "completed");
      assert.equal(result.modelCalls, 3);
      assert.deepEqual(
        provider.requests.map((r) => r.tools.length),
        [1, 1, 0],
        "two calls with tools, then the last one without",
      );
      const stops = budgetStops(seen);
      assert.equal(stops.length, 1);
      assert.match(stops[0]!.detail ?? "", detail);
    });
  }

  test("a run that stays a call below the limit is not stopped", async () => {
    const { agent, provider, seen } = budgeted({ maxCostUsd: 0.75 }, looping(2));
    const result = await agent.run("go");
    assert.equal(result.modelCalls, 3);
    assert.deepEqual(
      provider.requests.map((r) => r.tools.length),
      [1, 1, 1],
    );
    assert.deepEqual(budgetStops(seen), [], "$0.50 spent before the third call, under $0.75");
  });
});

describe("maxWallTimeMs counts working time, not time waiting for approval", () => {
  /** performance.now as the test sets it; everything the run does takes no time on it. */
  function fakeClock(): { advance: (ms: number) => void } {
    let now = 1_000_000;
    mock.method(performance, "now", () => now);
    return { advance: (ms) => void (now += ms) };
  }

  test("an hour spent waiting for a human does not use up a minute's budget", async (t) => {
    const clock = fakeClock();
    t.after(() => mock.restoreAll());
    const transfer = tool({ name: "transfer", description: "moves money", permission: "ask", execute: () => "moved" });
    const { agent, seen } = budgeted(
      { maxWallTimeMs: 60_000 },
      [
        { toolCalls: [{ id: "t1", name: "transfer", input: {} }] },
        { toolCalls: [{ name: "echo", input: { text: "check" } }] },
        { text: "done" },
      ],
      [echoTool, transfer],
    );
    const paused = await agent.run("pay the bill");
    assert.equal(paused.status, "awaiting_approval");
    clock.advance(3_600_000);
    const result = await agent.resume({ t1: "approve" });
    assert.deepEqual(budgetStops(seen), [], "the wait is not work");
    assert.equal(result.status, "completed");
    assert.equal(result.modelCalls, 3, "every call of the script, none cut short");
  });

  test("the same hour spent working (in a tool) does use it up", async (t) => {
    const clock = fakeClock();
    t.after(() => mock.restoreAll());
    const slow = tool({
      name: "crunch",
      description: "works for an hour",
      execute: () => {
        clock.advance(3_600_000);
        return "crunched";
      },
    });
    const { agent, provider, seen } = budgeted(
      { maxWallTimeMs: 60_000 },
      [{ toolCalls: [{ name: "crunch", input: {} }] }, { text: "done" }],
      [echoTool, slow],
    );
    const result = await agent.run("crunch the numbers");
    assert.equal(result.status, "completed");
    assert.deepEqual(
      provider.requests.map((r) => r.tools.length),
      [2, 0],
      "the hour of work made the second call the last",
    );
    assert.match(budgetStops(seen)[0]?.detail ?? "", /^it worked 3600000 ms of its 60000 ms$/);
  });
});
