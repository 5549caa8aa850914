import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { calcPrice } from "@pydantic/genai-prices";
import { Agent } from "../engine/agent.js";
import { ConfigError } from "../errors.js";
import { ALL_HOOK_EVENTS, HookEvent } from "../hooks/events.js";
import type { LlmResponseData } from "../hooks/payloads.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { mapSpans } from "../spans/map-spans.js";
import { CostAttributes, Hx } from "../spans/attributes.js";
import type { TraceEvent } from "../spans/span-model.js";
import { tool } from "../tools/tool.js";
import { Pricer } from "./pricer.js";

describe("a model call is priced from its usage with genai-prices", () => {
  test("a known model costs what genai-prices says, whatever the provider is called", async () => {
    const usage = { inputTokens: 12_000, outputTokens: 800 };
    const direct = calcPrice({ input_tokens: 12_000, output_tokens: 800 }, "gpt-4o", { providerId: "openai" });
    assert.ok(direct && direct.total_price > 0);
    for (const provider of ["openai", "my-gateway"]) {
      const cost = await new Pricer().price(usage, "gpt-4o", provider);
      assert.ok(cost.usd !== null, provider);
      assert.equal(cost.usd, direct.total_price);
      assert.equal(cost.inputUsd + cost.outputUsd, cost.usd);
      assert.equal(cost.source, "genai-prices");
    }
  });

  test("cache reads are priced as cache reads, cache writes as writes", async () => {
    const pricer = new Pricer();
    const model = "claude-sonnet-4-20250514";
    const plain = await pricer.price({ inputTokens: 100_000, outputTokens: 1_000 }, model, "anthropic");
    const cached = await pricer.price(
      { inputTokens: 100_000, outputTokens: 1_000, cacheReadTokens: 90_000 },
      model,
      "anthropic",
    );
    const written = await pricer.price(
      { inputTokens: 100_000, outputTokens: 1_000, cacheWriteTokens: 90_000 },
      model,
      "anthropic",
    );
    const direct = calcPrice({ input_tokens: 100_000, output_tokens: 1_000, cache_read_tokens: 90_000 }, model, {
      providerId: "anthropic",
    });
    assert.ok(plain.usd !== null && cached.usd !== null && written.usd !== null && direct);
    assert.equal(cached.usd, direct.total_price);
    assert.ok(cached.usd < plain.usd, "reads cost less than fresh input");
    assert.ok(written.usd > plain.usd, "writes cost more than fresh input");
  });

  test("an unknown model has no cost, with the reason, never 0", async () => {
    const cost = await new Pricer().price({ inputTokens: 10, outputTokens: 10 }, "scripted-model", "scripted");
    assert.equal(cost.usd, null);
    assert.match(cost.usd === null ? cost.reason : "", /no price for model "scripted-model" \(provider "scripted"\)/);
  });

  test("the agent's own prices come first, cache rates defaulting to the input rate", async () => {
    const pricer = new Pricer({
      prices: {
        "my-model": { inputPerMTok: 2, outputPerMTok: 8, cacheReadPerMTok: 0.5 },
        "gpt-4o": { inputPerMTok: 1, outputPerMTok: 1 },
      },
    });
    const mine = await pricer.price(
      { inputTokens: 1_000_000, outputTokens: 500_000, cacheReadTokens: 400_000, cacheWriteTokens: 100_000 },
      "my-model",
      "acme",
    );
    assert.ok(mine.usd !== null);
    // 500k fresh at 2, 400k read at 0.5, 100k written at the input rate 2; 500k out at 8.
    assert.ok(Math.abs(mine.usd - (1 + 0.2 + 0.2 + 4)) < 1e-9, String(mine.usd));
    assert.equal(mine.source, "prices");
    const negotiated = await pricer.price({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, "gpt-4o", "openai");
    assert.ok(negotiated.usd !== null && Math.abs(negotiated.usd - 2) < 1e-9);
  });

  test("a price file replaces the bundled table; a bad one, or bad prices, stop the agent being built", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hx-prices-"));
    try {
      const file = join(dir, "data.json");
      writeFileSync(
        file,
        JSON.stringify([
          {
            id: "acme",
            name: "Acme",
            api_pattern: ".*",
            models: [{ id: "acme-1", match: { starts_with: "acme-1" }, prices: { input_mtok: 3, output_mtok: 6 } }],
          },
        ]),
      );
      const pricer = new Pricer({ priceFile: file });
      assert.equal(
        (await pricer.price({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, "acme-1-2026", "acme")).usd,
        9,
      );
      const bundled = await pricer.price({ inputTokens: 1, outputTokens: 1 }, "gpt-4o", "openai");
      assert.match(bundled.usd === null ? bundled.reason : "", /in the price file/);

      const provider = new ScriptedProvider([]);
      writeFileSync(file, "{not json");
      assert.throws(
        () => new Agent({ pricing: { priceFile: file }, provider }),
        (e: unknown) => e instanceof ConfigError && /priceFile .* cannot be read as JSON/.test(e.message),
      );
      writeFileSync(file, JSON.stringify({ providers: [] }));
      assert.throws(
        () => new Agent({ pricing: { priceFile: file }, provider }),
        (e: unknown) => e instanceof ConfigError && /not a genai-prices data file/.test(e.message),
      );
      assert.throws(
        () => new Agent({ pricing: { prices: { m: { inputPerMTok: -1, outputPerMTok: 1 } } }, provider }),
        (e: unknown) => e instanceof ConfigError && /prices\["m"\]\.inputPerMTok/.test(e.message),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Every hook event of the agent's runs, as the span mapping reads them. */
function collect(agent: Agent, into: TraceEvent[]): void {
  for (const event of ALL_HOOK_EVENTS)
    agent.hooks.on(
      event,
      (ctx) => void into.push({ kind: event, ts: Date.now(), runId: ctx.runId, data: ctx.data } as TraceEvent),
    );
}

describe("a run's cost", () => {
  test("is on each LLM_RESPONSE, summed into RunResult.usage, and on the chat and run spans", async () => {
    const events: TraceEvent[] = [];
    const responses: LlmResponseData[] = [];
    const agent = new Agent({
      provider: new ScriptedProvider(
        [
          { toolCalls: [{ name: "noop", input: {} }], usage: { inputTokens: 2_000, outputTokens: 100 } },
          { text: "done", usage: { inputTokens: 3_000, outputTokens: 50, cacheReadTokens: 2_000 } },
        ],
        { model: "gpt-4o" },
      ),
      tools: [tool({ name: "noop", description: "does nothing", execute: () => "ok" })],
    });
    collect(agent, events);
    agent.hooks.on(HookEvent.LLM_RESPONSE, (ctx) => void responses.push(ctx.data));
    const result = await agent.run("go");
    assert.equal(result.status, "completed");
    assert.equal(responses.length, 2);
    const costs = responses.map((r) => r.cost.usd);
    assert.ok(
      costs.every((c) => typeof c === "number" && c > 0),
      JSON.stringify(costs),
    );
    assert.ok(Math.abs(result.usage.cost.usd! - (costs[0]! + costs[1]!)) < 1e-12);
    assert.equal(result.usage.cost.unpricedCalls, 0);

    const spans = mapSpans(events);
    const chats = spans.filter((s) => s.role === "chat");
    assert.deepEqual(
      chats.map((s) => s.attributes[Hx.COST_USD]),
      costs,
    );
    assert.deepEqual(
      chats.map((s) => s.attributes[CostAttributes.TOTAL]),
      costs,
    );
    assert.deepEqual(JSON.parse(String(chats[0]!.attributes[CostAttributes.LANGFUSE_DETAILS])).total, costs[0]);
    assert.equal(spans.find((s) => s.role === "agent")?.attributes[Hx.COST_USD], result.usage.cost.usd);
  });

  test("with an unpriced model: no total, the calls counted as unpriced, the reason on the span", async () => {
    const events: TraceEvent[] = [];
    const agent = new Agent({ provider: new ScriptedProvider([{ text: "hi" }]) });
    collect(agent, events);
    const result = await agent.run("go");
    assert.deepEqual(result.usage.cost, { usd: null, unpricedCalls: 1 });
    const spans = mapSpans(events);
    assert.match(String(spans.find((s) => s.role === "chat")?.attributes[Hx.COST_UNPRICED]), /scripted-model/);
    assert.equal(spans.find((s) => s.role === "agent")?.attributes[Hx.COST_UNPRICED_CALLS], 1);
  });
});
