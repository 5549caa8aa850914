// @harnessx/core installed without genai-prices (an optional peer; `harnessx` depends on it): an
// agent runs, and its calls are unpriced (cost unknown, never 0) with the command that installs
// the table, instead of a failed run.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { isolatedPackages, runModule } from "../support/isolated-package.js";

const app = isolatedPackages(["packages/core"], ["@pydantic/genai-prices"]);
after(() => rmSync(app, { recursive: true, force: true }));

test('core without "@pydantic/genai-prices": the run succeeds, each call unpriced with the install command', () => {
  const out = runModule(
    app,
    `
    import { Agent, ScriptedProvider } from "@harnessx/core";
    import { HookEvent } from "@harnessx/core/extension";
    const provider = new ScriptedProvider([{ text: "hi", usage: { inputTokens: 10, outputTokens: 2 } }]);
    const agent = new Agent({ provider, pricing: { prices: { scripted: { inputPerMTok: 1, outputPerMTok: 2 } } } });
    const calls = [];
    agent.hooks.on(HookEvent.LLM_RESPONSE, (ctx) => void calls.push(ctx.data.cost));
    const result = await agent.run("hello");
    await agent.close();
    console.log(JSON.stringify({ status: result.status, cost: result.usage.cost, calls }));
  `,
  );
  assert.equal(out.status, 0, out.stderr);
  const seen = JSON.parse(out.stdout) as {
    status: string;
    cost: { usd: unknown; unpricedCalls: number };
    calls: unknown[];
  };
  assert.equal(seen.status, "completed");
  assert.deepEqual(seen.cost, { usd: null, unpricedCalls: 1 });
  assert.deepEqual(seen.calls, [
    {
      usd: null,
      reason:
        'Pricing model calls needs the "@pydantic/genai-prices" package: npm install @pydantic/genai-prices@^0.1.8',
    },
  ]);
});
