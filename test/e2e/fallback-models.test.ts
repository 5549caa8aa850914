// A fallback model through the official SDKs on loopback: the Anthropic adapter against a server
// that answers 529 overloaded, then the OpenAI-compatible adapter against one that answers. The
// live OpenTelemetry span, the hook events, the cost and the recording all name the fallback.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Agent, FallbackError, type RunResult } from "@harnessx/core";
import { HookEvent, type LlmResponseData, type RecoveryData, type RetryData } from "@harnessx/core/extension";
import { AnthropicProvider, OpenAIProvider } from "harnessx";
import { FakeServer, anthropicErrorReply, openAIErrorReply, openAITurn } from "@harnessx/providers/test-support";
import { FlightRecorderExtension, openRecording } from "@harnessx/recorder";
import { OpenTelemetryExtension } from "@harnessx/exporters/otel";
import { cliWorkspace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-fallback-");
let anthropicServer: FakeServer;
let openaiServer: FakeServer;
before(async () => {
  anthropicServer = await FakeServer.start();
  openaiServer = await FakeServer.start();
});
after(async () => {
  await anthropicServer.close();
  await openaiServer.close();
  cli.cleanup();
});

const overloaded = () => anthropicErrorReply(529, "overloaded_error", "Overloaded");
// Prices of the agent's own table, so the assertion does not depend on genai-prices' numbers.
const prices = {
  "claude-sonnet-4-6": { inputPerMTok: 3, outputPerMTok: 15 },
  "gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6 },
};

function fallbackAgent(extensions: ConstructorParameters<typeof Agent>[0]["extensions"] = []) {
  const agent = new Agent({
    pricing: { prices },
    name: "support",
    provider: [
      new AnthropicProvider({ baseURL: anthropicServer.url, apiKey: "sk-ant-test", model: "claude-sonnet-4-6" }),
      { provider: new OpenAIProvider({ baseURL: `${openaiServer.url}/v1`, apiKey: "sk-test" }), model: "gpt-4o-mini" },
    ],
    retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 2 },
    extensions,
  });
  const responses: LlmResponseData[] = [];
  const recoveries: RecoveryData[] = [];
  const retries: RetryData[] = [];
  agent.hooks.on(HookEvent.LLM_RESPONSE, (ctx) => void responses.push(ctx.data));
  agent.hooks.on(HookEvent.RECOVERY, (ctx) => void recoveries.push(ctx.data));
  agent.hooks.on(HookEvent.RETRY, (ctx) => void retries.push(ctx.data));
  return { agent, responses, recoveries, retries };
}

describe("Anthropic overloaded, OpenAI answers", () => {
  let result: RunResult;
  let seen: ReturnType<typeof fallbackAgent>;
  const exporter = new InMemorySpanExporter();
  const tracing = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  before(async () => {
    anthropicServer.reply(overloaded());
    anthropicServer.reply(overloaded());
    openaiServer.reply(
      openAITurn({
        model: "gpt-4o-mini",
        text: "Your order ships tomorrow.",
        finishReason: "stop",
        usage: { prompt: 1_000_000, completion: 0 },
      }),
    );
    seen = fallbackAgent([
      new FlightRecorderExtension({ dir: cli.store }),
      new OpenTelemetryExtension({ tracer: tracing.getTracer("fallback") }),
    ]);
    result = await seen.agent.run("Where is my order?");
    await seen.agent.close();
    await tracing.forceFlush();
  });
  after(() => tracing.shutdown());

  test("the run completes with the fallback's answer, after the primary's retries", () => {
    assert.equal(result.status, "completed", result.error?.message);
    assert.equal(result.text, "Your order ships tomorrow.");
    assert.equal(seen.retries.length, 1, "the primary is retried (maxAttempts 2) before the switch");
    assert.match(String(seen.retries[0].error.message), /anthropic: server error \(HTTP 529\): Overloaded/);
    assert.equal(openaiServer.requests.at(-1)?.body.model, "gpt-4o-mini", "the fallback is asked for its own model");
  });

  test("LLM_RESPONSE names the fallback and its model; the cost is priced as that model", () => {
    const [response] = seen.responses;
    assert.deepEqual([response.provider, response.model], ["openai", "gpt-4o-mini"]);
    assert.equal(response.cost.usd, 0.15, "1M input tokens at gpt-4o-mini's $0.15, not claude's $3");
  });

  test("RECOVERY says why it switched: who failed how, and who answered", () => {
    assert.equal(seen.recoveries.length, 1);
    assert.equal(seen.recoveries[0].reason, "fallback");
    assert.match(
      seen.recoveries[0].detail!,
      /^anthropic \(claude-sonnet-4-6\) failed: anthropic: server error \(HTTP 529\): Overloaded; openai \(gpt-4o-mini\) answered$/,
    );
  });

  test("the live chat span carries gen_ai.provider.name of the fallback and its response model", () => {
    const chat = exporter.getFinishedSpans().find((s) => s.name.startsWith("chat "));
    assert.ok(chat, "a chat span was exported");
    assert.equal(chat.attributes["gen_ai.provider.name"], "openai");
    assert.equal(chat.attributes["gen_ai.response.model"], "gpt-4o-mini");
    const agentSpan = exporter.getFinishedSpans().find((s) => s.name === "invoke_agent support");
    assert.ok(
      agentSpan?.events.some(
        (e) => e.name === "harnessx.recovery" && e.attributes?.["harnessx.recovery.reason"] === "fallback",
      ),
    );
  });

  test("the recording's llm_response names the fallback", async () => {
    await using recording = await openRecording(result.runId, { storeDir: cli.store });
    const events = await recording.readEvents({ payloads: true });
    const response = events.find((e) => e.kind === "llm_response");
    assert.deepEqual([response?.attrs.provider, response?.attrs.model], ["openai", "gpt-4o-mini"]);
    const recovery = events.find((e) => e.kind === "recovery");
    assert.equal(recovery?.attrs.reason, "fallback");
  });

  test("trace replay reproduces the run from the recording", async () => {
    const replay = await cli.trace("--json", "replay", result.runId);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.equal(JSON.parse(replay.stdout).reproduced, true, replay.stdout);
  });
});

describe("when the fallback fails too", () => {
  test("the run fails with a FallbackError naming each provider's failure", async () => {
    anthropicServer.reply(overloaded());
    anthropicServer.reply(overloaded());
    openaiServer.reply(
      openAIErrorReply(401, {
        message: "Incorrect API key provided",
        type: "invalid_request_error",
        code: "invalid_api_key",
      }),
    );
    const { agent, recoveries } = fallbackAgent();
    const result = await agent.run("Where is my order?");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof FallbackError, String(result.error));
    assert.deepEqual(
      result.error.failures.map((f) => `${f.provider}:${f.error.kind}`),
      ["anthropic:server", "openai:auth"],
    );
    assert.match(
      result.error.message,
      /anthropic \(claude-sonnet-4-6\) failed: .*HTTP 529.*; openai \(gpt-4o-mini\) failed: .*authentication failed/,
    );
    assert.equal(recoveries.length, 0);
  });

  test("an auth error on the primary does not switch: the fallback is never asked", async () => {
    const asked = openaiServer.requests.length;
    anthropicServer.reply(anthropicErrorReply(401, "authentication_error", "invalid x-api-key"));
    const { agent } = fallbackAgent();
    const result = await agent.run("Where is my order?");
    assert.equal(result.error?.code, "provider_auth");
    assert.ok(!(result.error instanceof FallbackError));
    assert.equal(openaiServer.requests.length, asked);
  });
});
