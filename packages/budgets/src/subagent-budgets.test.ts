// What a subagent spends is spent by every run above it: its dollars count against its parent's
// budget, during the child's run and once it returns, and the limits of every ancestor apply to it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "@harnessx/core";
import { budgetExtension, type BudgetOptions } from "./budget-extension.js";
import { HookEvent } from "@harnessx/core/extension";
import { ScriptedProvider, type ScriptStep } from "@harnessx/core";
import { tool } from "@harnessx/core";
import { ofKind, recordEvents } from "@harnessx/core/test-support";

/** $250 per million input tokens: each call below costs exactly $0.25. */
const PRICES = { "priced-model": { inputPerMTok: 250, outputPerMTok: 0 } };
const QUARTER = { inputTokens: 1_000, outputTokens: 0 };
const work = tool({ name: "work", description: "does a step.", execute: () => "done" });
const callTool = (name: string): ScriptStep => ({
  toolCalls: [{ name, input: name === "work" ? {} : { input: "go on" } }],
  usage: QUARTER,
});
const answer = (text: string): ScriptStep => ({ text, usage: QUARTER });

/** An agent of the priced model; `budget` adds a budget extension. */
function agent(name: string, steps: ScriptStep[], tools: ReturnType<typeof tool>[], budget?: BudgetOptions) {
  const made = new Agent({
    pricing: { prices: PRICES },
    name,
    provider: new ScriptedProvider(steps),
    tools,
    model: "priced-model",
    retry: { maxAttempts: 1 },
    extensions: budget ? [budgetExtension(budget)] : [],
  });
  return { agent: made, seen: recordEvents(made) };
}

const stops = (seen: ReturnType<typeof recordEvents>) =>
  ofKind(seen, HookEvent.RECOVERY)
    .filter((r) => r.reason === "budget_exhausted")
    .map((r) => r.detail);

describe("a child's dollars count against its parent's cost budget", () => {
  test("while the child runs: the parent's $0.75 stops the child once the two spent it together", async () => {
    const child = agent("child", [callTool("work"), callTool("work"), callTool("work"), answer("child done")], [work]);
    const parent = agent(
      "parent",
      [callTool("helper"), answer("parent done")],
      [child.agent.asTool({ name: "helper", description: "helps." })],
      { maxCostUsd: 0.75 },
    );
    await parent.agent.run("go");
    // Parent $0.25, then the child's first two calls: before its third the two spent $0.75.
    assert.deepEqual(stops(child.seen), ["it spent $0.7500 of its $0.75 budget"]);
  });

  test("once the child returned: the parent's next call sees what the child spent", async () => {
    const child = agent("child", [answer("child done")], []);
    const parent = agent(
      "parent",
      [callTool("helper"), answer("parent done")],
      [child.agent.asTool({ name: "helper", description: "helps." })],
      { maxCostUsd: 0.5 },
    );
    const result = await parent.agent.run("go");
    assert.equal(result.status, "completed");
    // The parent's own call ($0.25) and the child's ($0.25) reach $0.50 before the parent's second call.
    assert.deepEqual(stops(parent.seen), ["it spent $0.5000 of its $0.5 budget"]);
    assert.equal(result.usage.cost.usd, 0.5, "the result counts the parent's own calls");
  });
});

describe("every ancestor's limits apply to a subagent", () => {
  test("a grandparent's model-call limit stops its grandchild, though the parent between them has no limit", async () => {
    const grandchild = agent(
      "grandchild",
      [callTool("work"), callTool("work"), callTool("work"), answer("grandchild done")],
      [work],
    );
    const parent = agent(
      "parent",
      [callTool("leaf"), answer("parent done")],
      [grandchild.agent.asTool({ name: "leaf", description: "the leaf." })],
    );
    const grandparent = agent(
      "grandparent",
      [callTool("mid"), answer("all done")],
      [parent.agent.asTool({ name: "mid", description: "the middle." })],
      { maxModelCalls: 3 },
    );
    await grandparent.agent.run("go");
    // One call each for the grandparent and the parent, one for the grandchild: three before its second.
    assert.deepEqual(stops(grandchild.seen), ["it made 3 of its 3 model calls"]);
    assert.deepEqual(
      stops(parent.seen),
      ["it made 4 of its 3 model calls"],
      "the parent's next call is stopped by the grandparent's limit too",
    );
  });
});
