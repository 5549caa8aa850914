import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent, type AgentOptions } from "@harnessx/core";
import { ConfigError, ExtensionError, RunError } from "@harnessx/core";
import { defineExtension } from "@harnessx/core/extension";
import { HookEvent } from "@harnessx/core/extension";
import { ScriptedProvider, type ScriptStep } from "@harnessx/core";
import { echoTool, ofKind, recordEvents } from "@harnessx/core/test-support";
import { tool } from "@harnessx/core";
import { budgetExtension, type BudgetOptions } from "./budget-extension.js";

/** A model that calls a tool `calls` times, then answers (what it says once told to stop). */
const looping = (calls: number, usage = { inputTokens: 1_000, outputTokens: 100 }): ScriptStep[] => [
  ...Array.from(
    { length: calls },
    (_, i): ScriptStep => ({ toolCalls: [{ name: "echo", input: { text: `step ${i}` } }], usage }),
  ),
  { text: "final answer", usage },
];

function budgeted(budget: BudgetOptions, steps: ScriptStep[], options: Partial<AgentOptions> = {}) {
  const provider = new ScriptedProvider(steps, { recordRequests: true });
  const agent = new Agent({ provider, tools: [echoTool], extensions: [budgetExtension(budget)], ...options });
  const seen = recordEvents(agent);
  return { provider, agent, seen };
}

describe("a reached budget ends the run with a last answer without tools", () => {
  const cases: Array<[string, BudgetOptions, RegExp, number]> = [
    ["model calls", { maxModelCalls: 2 }, /made 2 of its 2 model calls/, 2],
    ["tokens", { maxTokens: 3_000 }, /used 3300 of its 3000 tokens/, 3],
    ["cost", { maxCostUsd: 0.02 }, /spent \$0\.0\d+ of its \$0\.02 budget/, 2],
  ];
  for (const [limit, budget, reason, callsBefore] of cases) {
    test(`on ${limit}`, async () => {
      const prices = { "priced-model": { inputPerMTok: 10, outputPerMTok: 30 } };
      const { provider, agent, seen } = budgeted(budget, looping(callsBefore), {
        pricing: { prices },
        model: "priced-model",
      });
      const result = await agent.run("go");
      assert.equal(result.status, "completed");
      assert.equal(result.text, "final answer");
      assert.equal(result.modelCalls, callsBefore + 1, "one last call after the limit");
      const recoveries = ofKind(seen, HookEvent.RECOVERY);
      assert.equal(recoveries.length, 1);
      assert.equal(recoveries[0].reason, "budget_exhausted");
      assert.match(recoveries[0].detail ?? "", reason);
      const last = provider.requests.at(-1)!;
      assert.deepEqual(last.tools, [], "the last call offers no tools");
      assert.match(JSON.stringify(last.messages.at(-1)), /used up its budget/);
    });
  }

  test("on wall time, counting the time tools take", async () => {
    const slow = tool({
      name: "echo",
      description: "waits",
      inputSchema: { type: "object" },
      execute: async () => new Promise((resolve) => setTimeout(() => resolve("done"), 40)),
    });
    const { agent, seen } = budgeted({ maxWallTimeMs: 20 }, looping(1), { tools: [slow] });
    const result = await agent.run("go");
    assert.equal(result.text, "final answer");
    assert.equal(result.modelCalls, 2, "the first tool turn used the time; then the last call");
    assert.match(ofKind(seen, HookEvent.RECOVERY)[0].detail ?? "", /worked \d+ ms of its 20 ms/);
  });

  test("a run within its budget is untouched", async () => {
    const { agent, seen } = budgeted({ maxModelCalls: 10, maxTokens: 1e9 }, looping(3));
    const result = await agent.run("go");
    assert.equal(result.modelCalls, 4);
    assert.deepEqual(ofKind(seen, HookEvent.RECOVERY), []);
  });

  test("each run has its own budget", async () => {
    const { agent } = budgeted({ maxModelCalls: 2 }, [...looping(2), ...looping(2)]);
    assert.equal((await agent.run("one")).modelCalls, 3);
    assert.equal((await agent.run("two")).modelCalls, 3);
  });
});

describe("onExhausted: fail", () => {
  test("fails the run with budget_exhausted, reported as a policy error", async () => {
    const { agent, seen, provider } = budgeted({ maxModelCalls: 2, onExhausted: "fail" }, looping(10));
    const result = await agent.run("go");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof RunError);
    assert.equal(result.error.code, "budget_exhausted");
    assert.match(result.error.message, /stopped because it made 2 of its 2 model calls/);
    assert.equal(provider.requests.length, 2, "no call after the limit");
    const errors = ofKind(seen, HookEvent.ERROR);
    assert.equal(errors[0].source, "policy");
  });
});

describe("cost limits and unpriced models", () => {
  test("an unpriced model is reported once per run, never counted as free silently", async () => {
    const { agent, seen } = budgeted({ maxCostUsd: 0.01 }, looping(2), { model: "no-such-model-anywhere" });
    const result = await agent.run("go");
    assert.equal(result.status, "completed");
    const errors = ofKind(seen, HookEvent.ERROR);
    assert.equal(errors.length, 1);
    assert.match(errors[0].error.message, /have no price, so maxCostUsd cannot count them/);
  });
});

describe("run limits are fail-closed and can only end runs", () => {
  test("a limit that throws fails the run", async () => {
    const broken = defineExtension(
      "broken-limit",
      (hx) =>
        void hx.addRunLimit({
          check: () => {
            throw new Error("no data");
          },
        }),
    );
    const agent = new Agent({ provider: new ScriptedProvider(looping(3)), tools: [echoTool], extensions: [broken] });
    const result = await agent.run("go");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof ExtensionError);
    assert.match(result.error.message, /broken-limit.*run limit failed/);
  });

  test("a verdict with an unknown action fails the run instead of letting it go on", async () => {
    const odd = defineExtension(
      "odd-limit",
      (hx) =>
        void hx.addRunLimit({
          check: (p) => (p.modelCalls >= 1 ? ({ action: "continue", reason: "?" } as never) : undefined),
        }),
    );
    const agent = new Agent({ provider: new ScriptedProvider(looping(3)), tools: [echoTool], extensions: [odd] });
    const result = await agent.run("go");
    assert.equal(result.status, "failed");
    assert.equal(result.error?.code, "budget_exhausted");
  });

  test("bad options are a ConfigError naming the option", () => {
    assert.throws(() => budgetExtension({}), ConfigError);
    assert.throws(() => budgetExtension({ maxTokens: -1 }), /maxTokens must be a positive number/);
    assert.throws(
      () => budgetExtension({ maxModelCalls: 2, onExhausted: "retry" as never }),
      /onExhausted must be "answer" or "fail"/,
    );
  });
});
