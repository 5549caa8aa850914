// AgentOptions as written (what the agent is at the top; limits, context and pricing grouped)
// against Agent.config, the same settings resolved and flat.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConfigError } from "../errors.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { configOptions, resolveConfig } from "./config.js";

const provider = new ScriptedProvider([]);

describe("resolveConfig", () => {
  test("each group's fields land in the flat config; what is left out takes its default", () => {
    const config = resolveConfig({
      provider,
      name: "planner",
      limits: { maxIterations: 7, maxTokens: 512, repetition: false },
      context: { condense: false, contextBudgetTokens: 9000 },
      pricing: { prices: { m: { inputPerMTok: 1, outputPerMTok: 2 } }, priceFile: "prices.json" },
    });
    assert.equal(config.name, "planner");
    assert.deepEqual(
      [config.maxIterations, config.maxTokens, config.repetition, config.maxReplyTokens, config.requestTimeoutMs],
      [7, 512, false, 32_768, 120_000],
    );
    assert.deepEqual([config.condense, config.contextBudgetTokens, config.maxPromptFragmentChars], [false, 9000, 4000]);
    assert.deepEqual(config.prices, { m: { inputPerMTok: 1, outputPerMTok: 2 } });
    assert.equal(config.priceFile, "prices.json");
  });

  test("no groups: every default", () => {
    const config = resolveConfig({ provider });
    assert.deepEqual(
      [config.maxIterations, config.maxTokens, config.condense, config.contextBudgetTokens, config.repetition],
      [50, 4096, true, 150_000, { threshold: 4 }],
    );
    assert.deepEqual(config.prices, {});
    assert.equal(config.priceFile, undefined);
  });

  test("a bad figure is refused by its path in the options", () => {
    assert.throws(
      () => resolveConfig({ provider, limits: { maxTokens: 0 } }),
      (error: unknown) => {
        return error instanceof ConfigError && error.message.startsWith("limits.maxTokens must be a positive number");
      },
    );
    assert.throws(
      () => resolveConfig({ provider, context: { contextBudgetTokens: -1 } }),
      /context\.contextBudgetTokens must be a positive number/,
    );
  });

  test("a grouped field set at the top is refused, naming its group, not ignored", () => {
    for (const [field, group] of [
      ["maxIterations", "limits"],
      ["repetition", "limits"],
      ["contextBudgetTokens", "context"],
      ["prices", "pricing"],
    ]) {
      const flat = { provider, [field as string]: 1 } as unknown as Parameters<typeof resolveConfig>[0];
      assert.throws(() => resolveConfig(flat), new RegExp(`^ConfigError: ${field} is an option of ${group} now`));
    }
  });
});

describe("configOptions", () => {
  test("a flat config back into options, each field in its group: resolving them gives the same config", () => {
    const config = resolveConfig({
      provider,
      name: "n",
      temperature: 0.5,
      todos: true,
      limits: { maxIterations: 3, repetition: false },
      context: { contextBudgetTokens: 999 },
      pricing: { prices: { m: { inputPerMTok: 1, outputPerMTok: 1 } } },
    });
    const options = configOptions(config);
    assert.equal(options.limits?.maxIterations, 3);
    assert.equal(options.context?.contextBudgetTokens, 999);
    assert.deepEqual(options.pricing?.prices, { m: { inputPerMTok: 1, outputPerMTok: 1 } });
    assert.equal(options.temperature, 0.5);
    assert.deepEqual(resolveConfig({ ...options, provider }), config);
  });
});
