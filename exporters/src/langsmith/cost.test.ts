import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { CallCost } from "@harnessx/core";
import { HookEvent } from "@harnessx/core/extension";
import { LangSmithExtension } from "./extension.js";
import { startLangSmithServer, type LangSmithServer } from "../test-support/langsmith-server.js";
import { MODEL, scenarioAgent } from "../test-support/scenario.js";

describe("LangSmith runs carry each model call's cost, as its SDK documents usage_metadata", () => {
  let server: LangSmithServer;
  const costs: CallCost[] = [];
  let runCost: number | null = null;
  before(async () => {
    server = await startLangSmithServer("ok");
    const extension = new LangSmithExtension({
      clientConfig: { apiUrl: server.url, apiKey: "test-key" },
      projectName: "cost-test",
    });
    const { agent, cleanup } = scenarioAgent([extension], {
      prices: { [MODEL]: { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3 } },
    });
    agent.hooks.on(HookEvent.LLM_RESPONSE, ({ data }) => void costs.push(data.cost));
    try {
      const result = await agent.run("How are the regions?");
      runCost = result.usage.cost.usd;
      await agent.close();
    } finally {
      cleanup();
    }
  });
  after(() => server.close());

  test("llm runs: input_cost, output_cost and total_cost; the chain run: the run's total", () => {
    const runs = [...server.runs.values()];
    const llms = runs.filter((r) => r.run_type === "llm").sort((a, b) => a.dotted_order.localeCompare(b.dotted_order));
    assert.equal(llms.length, costs.length);
    llms.forEach((run, i) => {
      const usage = (run.outputs as { usage_metadata: Record<string, number> }).usage_metadata;
      const cost = costs[i];
      assert.ok(cost.usd !== null, "the agent's own price applies");
      assert.equal(usage.total_cost, cost.usd);
      assert.equal(usage.input_cost, cost.inputUsd);
      assert.equal(usage.output_cost, cost.outputUsd);
    });
    const chain = runs.find((r) => r.run_type === "chain")!;
    const metadata = (chain.extra as { metadata: { usage_metadata: Record<string, number> } }).metadata;
    assert.ok(runCost !== null && runCost > 0);
    assert.equal(metadata.usage_metadata.total_cost, runCost);
  });
});
