// What a run cost, as every part of the CLI shows it: `trace ls`, `trace summary` (from the
// run's rollup, and from its bundle's events; per run, per model and per tool's call chain), and
// the `spans` table's `cost_usd`, all equal to the costs the agent put on its LLM_RESPONSE
// events; and a run its budget stopped, as the recording keeps it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  Agent,
  FlightRecorderExtension,
  HookEvent,
  ScriptedProvider,
  budgetExtension,
  tool,
  type PricingOptions,
  type CallCost,
} from "harnessx";
import { cliWorkspace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-cost-");
const lookup = tool({ name: "lookup", description: "Looks an order up.", execute: () => "order 42: shipped" });

/** Records one run of `model` (two calls, the second with cache reads), returning its id and the costs its LLM_RESPONSE events carried. */
async function record(
  model: string,
  secondInput = 12_500,
  prices?: PricingOptions["prices"],
): Promise<{ runId: string; costs: CallCost[] }> {
  const agent = new Agent({
    provider: new ScriptedProvider(
      [
        { toolCalls: [{ name: "lookup", input: {} }], usage: { inputTokens: 12_000, outputTokens: 300 } },
        { text: "It shipped.", usage: { inputTokens: secondInput, outputTokens: 40, cacheReadTokens: 11_000 } },
      ],
      { model },
    ),
    name: "orders",
    tools: [lookup],
    extensions: [new FlightRecorderExtension({ dir: cli.store })],
    ...(prices ? { pricing: { prices } } : {}),
  });
  const costs: CallCost[] = [];
  agent.hooks.on(HookEvent.LLM_RESPONSE, ({ data }) => void costs.push(data.cost));
  const result = await agent.run("Where is order 42?");
  await agent.close();
  assert.equal(result.status, "completed");
  return { runId: result.runId, costs };
}

async function json<T>(...args: string[]): Promise<T> {
  const r = await cli.trace("--json", ...args);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}

const close = (a: number | null | undefined, b: number) => typeof a === "number" && Math.abs(a - b) < 1e-9;
let priced: { runId: string; costs: CallCost[] };
let unpriced: { runId: string; costs: CallCost[] };
let total: number;

before(async () => {
  priced = await record("gpt-4o");
  unpriced = await record("in-house-model");
  total = priced.costs.reduce((sum, c) => sum + (c.usd ?? NaN), 0);
  assert.ok(total > 0, "gpt-4o has a price in genai-prices");
  assert.ok(unpriced.costs.every((c) => c.usd === null));
});
after(() => cli.cleanup());

describe("a run's cost in the CLI", () => {
  test("trace ls: per run, unknown (not $0) for a model without a price", async () => {
    const runs = await json<Array<{ runId: string; cost: { usd: number | null; unpricedCalls: number } }>>("ls");
    const of = (id: string) => runs.find((r) => r.runId === id)!.cost;
    assert.ok(close(of(priced.runId).usd, total));
    assert.equal(of(priced.runId).unpricedCalls, 0);
    assert.deepEqual(of(unpriced.runId), { usd: null, unpricedCalls: 2 });
    const table = await cli.trace("ls");
    assert.match(table.stdout.split("\n").find((l) => l.startsWith(unpriced.runId)) ?? "", /\bunknown\b/);
    assert.match(table.stdout.split("\n").find((l) => l.startsWith(priced.runId)) ?? "", /\$0\.0\d+/);
  });

  test("trace summary: per run and per model, the same from the run's rollup and from its bundle's events", async () => {
    const bundle = join(cli.work, "priced.tar");
    assert.equal((await cli.trace("export", priced.runId, "-o", bundle)).code, 0);
    type Summary = {
      cost: { usd: number | null; unpricedCalls: number };
      models: Array<{ model: string; costUsd: number | null; unpricedCalls: number }>;
    };
    const fromRun = await json<Summary>("summary", priced.runId);
    const fromBundle = await json<Summary>("summary", bundle);
    assert.ok(close(fromRun.cost.usd, total));
    assert.deepEqual(fromBundle.cost, fromRun.cost);
    assert.deepEqual(fromBundle.models, fromRun.models);
    assert.equal(fromRun.models[0].model, "gpt-4o");
    assert.ok(close(fromRun.models[0].costUsd, total));
    const text = (await cli.trace("summary", unpriced.runId)).stdout;
    assert.match(text, /cost\s+unknown\s+\(2 model call\(s\) without a price: not counted\)/);
  });

  test("the spans table: cost_usd per model call, the total on the run span, NULL for tools", async () => {
    const rows = await json<Array<{ kind: string; cost_usd: number | null }>>(
      "query",
      priced.runId,
      "SELECT kind, cost_usd FROM spans ORDER BY start_ts, kind",
    );
    const model = rows.filter((r) => r.kind === "model").map((r) => r.cost_usd);
    assert.equal(model.length, 2);
    for (const [i, usd] of model.entries()) assert.ok(close(usd, priced.costs[i].usd!), `call ${i + 1}`);
    assert.ok(close(rows.find((r) => r.kind === "run")?.cost_usd, total));
    assert.deepEqual(
      rows.filter((r) => r.kind === "tool").map((r) => r.cost_usd),
      [null],
    );
    const none = await json<Array<{ n: number }>>(
      "query",
      unpriced.runId,
      "SELECT count(*) AS n FROM spans WHERE cost_usd IS NOT NULL",
    );
    assert.equal(Number(none[0].n), 0);
  });

  test("trace diff: the cost of each call side by side with B minus A, and a change of prices as a configuration difference", async () => {
    const bigger = await record("gpt-4o", 40_000);
    type Diff = {
      a: { costUsd: number | null };
      b: { costUsd: number | null };
      configDifferences: string[];
      steps: Array<{ delta: { costUsd: number | null } | null }>;
    };
    const r = await cli.trace("--json", "diff", priced.runId, bigger.runId);
    const diff = JSON.parse(r.stdout) as Diff;
    assert.ok(close(diff.a.costUsd, total));
    assert.ok(close(diff.steps[0].delta?.costUsd, 0), "the first calls cost the same");
    assert.ok(
      close(diff.steps[1].delta?.costUsd, bigger.costs[1].usd! - priced.costs[1].usd!),
      "the second call's extra input, priced",
    );
    const repriced = await record("gpt-4o", 12_500, { "gpt-4o": { inputPerMTok: 1, outputPerMTok: 1 } });
    const priceChange = JSON.parse((await cli.trace("--json", "diff", priced.runId, repriced.runId)).stdout) as Diff;
    assert.deepEqual(priceChange.configDifferences, ['prices {} -> {"gpt-4o":{"inputPerMTok":1,"outputPerMTok":1}}']);
    assert.ok(close(priceChange.b.costUsd, (12_000 + 12_500 + 300 + 40) / 1e6), "the agent's own price of gpt-4o");
  });

  test("trace summary: per tool, what the model calls that asked for it cost, a reply's cost shared among its tool calls", async () => {
    const refund = tool({ name: "refund", description: "Refunds an order.", execute: () => "refunded" });
    const usage = { inputTokens: 10_000, outputTokens: 200 };
    const agent = new Agent({
      provider: new ScriptedProvider(
        [
          {
            toolCalls: [
              { name: "lookup", input: {} },
              { name: "refund", input: {} },
            ],
            usage,
          },
          { toolCalls: [{ name: "lookup", input: {} }], usage },
          { text: "Refunded.", usage },
        ],
        { model: "gpt-4o" },
      ),
      tools: [lookup, refund],
      extensions: [new FlightRecorderExtension({ dir: cli.store })],
    });
    const costs: number[] = [];
    agent.hooks.on(HookEvent.LLM_RESPONSE, ({ data }) => void costs.push(data.cost.usd ?? NaN));
    const { runId } = await agent.run("Refund order 42");
    await agent.close();
    const bundle = join(cli.work, "chain.tar");
    assert.equal((await cli.trace("export", runId, "-o", bundle)).code, 0);
    type Tools = { tools: Array<{ tool: string; calls: number; costUsd: number | null }> };
    const fromRun = await json<Tools>("summary", runId);
    const fromBundle = await json<Tools>("summary", bundle);
    assert.deepEqual(fromBundle.tools, fromRun.tools, "the rollup and the events agree");
    const of = (name: string) => fromRun.tools.find((t) => t.tool === name)!;
    assert.ok(close(of("lookup").costUsd, costs[0] / 2 + costs[1]));
    assert.ok(close(of("refund").costUsd, costs[0] / 2));
    assert.match((await cli.trace("summary", runId)).stdout, /MODEL COST/);
    const unpricedTools = await json<Tools>("summary", unpriced.runId);
    assert.equal(unpricedTools.tools[0].costUsd, null, "unknown, not $0");
  });

  test("a run stopped by its budget: the recovery, its reason and the last answer are in the recording", async () => {
    const agent = new Agent({
      provider: new ScriptedProvider(
        [
          { toolCalls: [{ name: "lookup", input: {} }], usage: { inputTokens: 12_000, outputTokens: 300 } },
          { text: "Order 42 shipped; I stopped there.", usage: { inputTokens: 12_000, outputTokens: 40 } },
        ],
        { model: "gpt-4o" },
      ),
      tools: [lookup],
      extensions: [new FlightRecorderExtension({ dir: cli.store }), budgetExtension({ maxModelCalls: 1 })],
    });
    const { runId, status } = await agent.run("Where is order 42?");
    await agent.close();
    assert.equal(status, "completed");
    const rows = await json<Array<{ reason: string; detail: string }>>(
      "query",
      runId,
      "SELECT attrs->>'reason' AS reason, attrs->>'detail' AS detail FROM events WHERE kind = 'recovery'",
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0].reason, "budget_exhausted");
    assert.match(rows[0].detail ?? "", /made 1 of its 1 model calls/);
    const otlp = await cli.trace("convert", runId, "--to", "otlp");
    assert.match(
      otlp.stdout,
      /"key":"harnessx\.recovery\.detail","value":\{"stringValue":"it made 1 of its 1 model calls"\}/,
      "the run span's event in every converted form",
    );
  });
});
