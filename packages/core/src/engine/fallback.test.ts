import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConfigError, ProviderError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { FallbackProvider, type FallbackChain } from "../providers/fallback-provider.js";
import { ScriptedProvider, type ScriptStep } from "../providers/scripted.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import { journalDir } from "../durable/durable-test-kit.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, type AgentOptions } from "./agent.js";
import { FallbackError } from "./fallback.js";

const primaryOf = (steps: ScriptStep[]) =>
  new ScriptedProvider(steps, { name: "primary", model: "big-model", recordRequests: true });
const backupOf = (steps: ScriptStep[]) =>
  new ScriptedProvider(steps, { name: "backup", model: "backup-default", recordRequests: true });
const overloaded: ScriptStep = { error: { status: 529, message: "Overloaded" } };
const usage = { inputTokens: 1_000_000, outputTokens: 0 };

function setup(chain: FallbackChain, options: Partial<AgentOptions> = {}) {
  const agent = new Agent({ provider: chain, retry: { maxAttempts: 2, initialDelayMs: 1 }, ...options });
  const seen = recordEvents(agent);
  return {
    agent,
    seen,
    recoveries: () => ofKind(seen, HookEvent.RECOVERY),
    responses: () => ofKind(seen, HookEvent.LLM_RESPONSE),
  };
}

describe("a failure that switches goes to the next provider, which answers with its own model", () => {
  test("529 overloaded: the primary's retries are spent, then the fallback answers; events, model and cost name the fallback", async () => {
    const primary = primaryOf([overloaded, overloaded]);
    const backup = backupOf([{ text: "from the backup", usage }]);
    const { agent, seen, recoveries, responses } = setup([primary, { provider: backup, model: "cheap-model" }], {
      pricing: {
        prices: {
          "big-model": { inputPerMTok: 10, outputPerMTok: 10 },
          "cheap-model": { inputPerMTok: 1, outputPerMTok: 1 },
        },
      },
    });
    const result = await agent.run("hi");
    assert.equal(result.status, "completed");
    assert.equal(result.text, "from the backup");
    assert.equal(
      ofKind(seen, HookEvent.RETRY).length,
      1,
      "the primary was retried once (maxAttempts 2) before the switch",
    );
    assert.equal(primary.position, 2);
    assert.equal(backup.requests[0].model, "cheap-model", "the fallback is asked for its own model");
    const [response] = responses();
    assert.equal(response.provider, "backup");
    assert.equal(response.model, "cheap-model");
    assert.equal(response.cost.usd, 1, "priced as the fallback's model: 1M input tokens at $1");
    assert.equal(result.usage.cost.usd, 1);
    const [recovery] = recoveries();
    assert.equal(recovery.reason, "fallback");
    assert.match(recovery.detail!, /^primary \(big-model\) failed: .*Overloaded; backup \(cheap-model\) answered$/);
  });

  test("a fallback named without a model is asked for its provider's defaultModel", async () => {
    const backup = backupOf([{ text: "ok" }]);
    const { agent, responses } = setup([primaryOf([{ error: { status: 503 } }, { error: { status: 503 } }]), backup]);
    assert.equal((await agent.run("hi")).status, "completed");
    assert.equal(responses()[0].model, "backup-default");
  });

  test("an unsupported feature switches at once, without retries", async () => {
    const primary = primaryOf([
      { error: { kind: "unsupported", status: 400, message: "primary: this model does not support thinking" } },
    ]);
    const { agent, seen, recoveries } = setup([primary, backupOf([{ text: "ok" }])]);
    assert.equal((await agent.run("hi")).status, "completed");
    assert.equal(ofKind(seen, HookEvent.RETRY).length, 0);
    assert.match(recoveries()[0].detail!, /does not support thinking; backup \(backup-default\) answered/);
  });

  test("a refused reply goes to the next provider; its tokens still count in the run's usage", async () => {
    const primary = primaryOf([
      { text: "I can't help with that", stopReason: "refusal", usage: { inputTokens: 7, outputTokens: 3 } },
    ]);
    const { agent, recoveries, responses } = setup([
      primary,
      backupOf([{ text: "here you go", usage: { inputTokens: 5, outputTokens: 2 } }]),
    ]);
    const result = await agent.run("hi");
    assert.equal(result.text, "here you go");
    assert.deepEqual([result.usage.inputTokens, result.usage.outputTokens], [12, 5]);
    assert.deepEqual(
      responses().map((r) => r.provider),
      ["backup"],
    );
    assert.match(recoveries()[0].detail!, /primary \(big-model\) failed: primary: the model refused to answer/);
  });

  test("a streamed run streams the fallback's text, each provider streaming its own request", async () => {
    const backup = backupOf([{ text: "streamed by the backup" }]);
    const { agent } = setup([primaryOf([overloaded, overloaded]), backup]);
    let text = "";
    for await (const event of agent.runStream("hi")) if (event.type === "text_delta") text += event.text;
    assert.equal(text, "streamed by the backup");
    assert.equal(backup.requests[0].stream, true);
  });

  test("the last provider's refusal is its answer", async () => {
    const { agent } = setup([primaryOf([overloaded, overloaded]), backupOf([{ text: "no", stopReason: "refusal" }])]);
    const result = await agent.run("hi");
    assert.equal(result.text, "no");
  });
});

describe("other failures do not switch", () => {
  for (const [what, step] of [
    ["an auth error (a setup mistake a switch would hide)", { error: { status: 401, message: "bad key" } }],
    ["an invalid request", { error: { status: 400, message: "roles must alternate" } }],
    ["an unusable reply", { error: { kind: "bad_response", message: "not JSON" } }],
  ] as const) {
    test(`${what} fails the run with the primary's own error; the fallback is never asked`, async () => {
      const backup = backupOf([{ text: "unused" }]);
      const { agent, recoveries } = setup([primaryOf([step]), backup]);
      const result = await agent.run("hi");
      assert.equal(result.status, "failed");
      assert.ok(
        result.error instanceof ProviderError && !(result.error instanceof FallbackError),
        String(result.error),
      );
      assert.match(result.error.message, new RegExp(step.error.message));
      assert.equal(backup.position, 0);
      assert.equal(recoveries().length, 0);
    });
  }
});

describe("a durable run journals who answered", () => {
  test("the committed reply carries the fallback's provider and model, and its price", async () => {
    const { dir, store, cleanup } = journalDir();
    try {
      const { agent } = setup(
        [primaryOf([overloaded, overloaded]), { provider: backupOf([{ text: "ok", usage }]), model: "cheap-model" }],
        { pricing: { prices: { "cheap-model": { inputPerMTok: 1, outputPerMTok: 1 } } }, durable: { store: store() } },
      );
      const result = await agent.run("hi");
      await agent.close();
      const lines = readFileSync(join(dir, `${result.runId}.ndjson`), "utf8")
        .trim()
        .split("\n")
        .map(
          (l) =>
            JSON.parse(l) as { phase: string; response?: { provider: string; model: string }; cost?: { usd: number } },
        );
      const reply = lines.find((l) => l.phase === "model_reply");
      assert.deepEqual(
        [reply?.response?.provider, reply?.response?.model, reply?.cost?.usd],
        ["backup", "cheap-model", 1],
      );
    } finally {
      cleanup();
    }
  });
});

describe("when no provider answers, the error names each failure", () => {
  test("every provider fails: a FallbackError lists them in order, with the last one's kind", async () => {
    const third = new ScriptedProvider(
      [{ error: { status: 429, message: "quota" } }, { error: { status: 429, message: "quota" } }],
      { name: "third" },
    );
    const { agent, recoveries } = setup([
      primaryOf([overloaded, overloaded]),
      backupOf([{ error: { status: 503, message: "down" } }, { error: { status: 503, message: "down" } }]),
      third,
    ]);
    const result = await agent.run("hi");
    assert.equal(result.status, "failed");
    const error = result.error;
    assert.ok(error instanceof FallbackError, String(error));
    assert.deepEqual(
      error.failures.map((f) => `${f.provider}:${f.error.kind}`),
      ["primary:server", "backup:server", "third:rate_limit"],
    );
    assert.equal(error.kind, "rate_limit");
    assert.match(
      error.message,
      /^no provider answered: primary \(big-model\) failed: Overloaded; backup \(backup-default\) failed: down; third \(scripted-model\) failed: quota$/,
    );
    assert.equal(recoveries().length, 0);
  });

  test("a fallback failing in a way that does not switch ends the chain there, both failures named", async () => {
    const third = new ScriptedProvider([{ text: "unused" }], { name: "third" });
    const { agent } = setup([
      primaryOf([overloaded, overloaded]),
      backupOf([{ error: { status: 401, message: "bad key" } }]),
      third,
    ]);
    const result = await agent.run("hi");
    assert.ok(result.error instanceof FallbackError);
    assert.deepEqual(
      result.error.failures.map((f) => f.error.kind),
      ["server", "auth"],
    );
    assert.equal(result.error.code, "provider_auth");
    assert.equal(third.position, 0);
  });
});

describe("a single provider behaves as before", () => {
  test("[provider] fails with the provider's own error, not a FallbackError", async () => {
    const { agent } = setup([primaryOf([overloaded, overloaded])]);
    const result = await agent.run("hi");
    assert.ok(result.error instanceof ProviderError && !(result.error instanceof FallbackError));
    assert.equal(agent.config.model, "big-model");
  });
});

describe("FallbackProvider on its own", () => {
  test("complete() tries each provider once, in order, each with its model; the chain takes the primary's name and model", async () => {
    const chain = new FallbackProvider([
      primaryOf([overloaded]),
      { provider: backupOf([{ text: "ok" }]), model: "cheap-model" },
    ]);
    assert.equal(chain.name, "primary");
    assert.equal(chain.defaultModel, "big-model");
    const reply = await chain.complete({
      model: "big-model",
      system: "",
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      tools: [],
      maxTokens: 10,
      stream: false,
    });
    assert.deepEqual([reply.provider, reply.model], ["backup", "cheap-model"]);
  });

  test("an empty chain or an entry that is not a provider is a ConfigError naming it", () => {
    assert.throws(() => new FallbackProvider([] as unknown as FallbackChain), ConfigError);
    assert.throws(
      () => new Agent({ provider: [primaryOf([]), { provider: {} } as unknown as FallbackChain[0]] }),
      /fallback entry 2 is not a provider/,
    );
    assert.throws(
      () => new Agent({ provider: [primaryOf([]), null as unknown as FallbackChain[0]] }),
      /fallback entry 2 is not a provider/,
    );
    assert.throws(() => new Agent({ provider: [primaryOf([]), { provider: backupOf([]), model: "" }] }), ConfigError);
  });
});
