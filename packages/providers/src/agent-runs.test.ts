import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Agent, ProviderError, tool, type ModelProvider, type RunEvent } from "@harnessx/core";
import { HookEvent } from "@harnessx/core/extension";
import { AnthropicProvider } from "./anthropic/provider.js";
import { OpenAIProvider } from "./openai/provider.js";
import { anthropicErrorReply, anthropicTurn } from "./test-support/anthropic-wire.js";
import { openAIErrorReply, openAITurn } from "./test-support/openai-wire.js";
import { FakeServer, type Responder } from "./test-support/server.js";

let server: FakeServer;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
before(async () => {
  server = await FakeServer.start();
  process.on("unhandledRejection", onUnhandled);
});
after(async () => {
  process.off("unhandledRejection", onUnhandled);
  await server.close();
  assert.deepEqual(unhandled, [], "no promise rejection went unhandled");
});

function weatherTool(calls: Array<Record<string, unknown>>) {
  return tool({
    name: "get_weather",
    description: "Current weather of a city.",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    execute: async (input: { city: string }) => {
      calls.push(input);
      return `${input.city}: sunny, 24 C`;
    },
  });
}

interface Vendor {
  name: string;
  provider: () => ModelProvider;
  toolTurn: Responder;
  textTurn: (text: string) => Responder;
  rateLimited: (headers: Record<string, string>) => Responder;
  /** Run usage of the tool turn plus the text turn. */
  usage: Record<string, number>;
  /** The tool result as the vendor's next request carries it. */
  toolResultIn: (body: { messages: unknown[] }) => unknown;
}

const thinking = { type: "thinking", thinking: "I need the weather tool.", signature: "EqQBCgIYAhIMsig+/==" };
const redacted = { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix" };

const vendors: Vendor[] = [
  {
    name: "OpenAIProvider",
    provider: () => new OpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: "sk-test" }),
    toolTurn: openAITurn({
      toolCalls: [{ id: "call_w1", name: "get_weather", arguments: '{"city":"Paris"}' }],
      finishReason: "tool_calls",
      usage: { prompt: 100, completion: 20 },
    }),
    textTurn: (text) => openAITurn({ text, finishReason: "stop", usage: { prompt: 130, completion: 8, cached: 100 } }),
    rateLimited: (headers) =>
      openAIErrorReply(429, { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" }, headers),
    usage: { inputTokens: 230, outputTokens: 28, cacheReadTokens: 100 },
    toolResultIn: (body) => body.messages.find((m) => (m as { role: string }).role === "tool"),
  },
  {
    name: "AnthropicProvider",
    provider: () => new AnthropicProvider({ baseURL: server.url, apiKey: "sk-ant-test" }),
    toolTurn: anthropicTurn({
      content: [
        thinking,
        redacted,
        { type: "tool_use", id: "toolu_w1", name: "get_weather", input: { city: "Paris" } },
      ],
      stopReason: "tool_use",
      usage: { input_tokens: 100, output_tokens: 20 },
    }),
    textTurn: (text) =>
      anthropicTurn({
        content: [{ type: "text", text }],
        stopReason: "end_turn",
        usage: { input_tokens: 30, output_tokens: 8, cache_read_input_tokens: 100 },
      }),
    rateLimited: (headers) =>
      anthropicErrorReply(
        429,
        "rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit",
        headers,
      ),
    // Cache counts are part of inputTokens: 100 + (30 + 100 read).
    usage: { inputTokens: 230, outputTokens: 28, cacheReadTokens: 100, cacheWriteTokens: 0 },
    toolResultIn: (body) => (body.messages.at(-1) as { content: unknown[] }).content[0],
  },
];

for (const vendor of vendors) {
  describe(`an Agent on ${vendor.name} calls a tool and finishes, streaming`, () => {
    test("tool call, tool result sent back, final text streamed; usage summed over both calls", async () => {
      const calls: Array<Record<string, unknown>> = [];
      await using agent = new Agent({ provider: vendor.provider(), tools: [weatherTool(calls)], model: "test-model" });
      server.reply(vendor.toolTurn, vendor.textTurn("Paris is sunny, 24 C."));
      const first = server.requests.length;
      const stream = agent.runStream("Weather in Paris?");
      const events: RunEvent[] = [];
      for await (const event of stream) events.push(event);
      const result = await stream.result;

      assert.equal(result.status, "completed", result.error?.message);
      assert.equal(result.text, "Paris is sunny, 24 C.");
      assert.deepEqual(calls, [{ city: "Paris" }]);
      assert.equal(events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join(""), "Paris is sunny, 24 C.");
      assert.deepEqual(
        events.filter((e) => e.type.startsWith("tool_call")).map((e) => e.type),
        ["tool_call_start", "tool_call_end"],
      );
      const { cost, ...tokens } = result.usage;
      assert.deepEqual(tokens, vendor.usage);
      assert.ok(
        cost.usd !== null && cost.usd > 0 && cost.unpricedCalls === 0,
        `the vendor's default model is priced by genai-prices: ${JSON.stringify(cost)}`,
      );

      const [firstRequest, secondRequest] = server.requests.slice(first);
      assert.equal(firstRequest.body.stream, true, "runStream streams from the provider");
      assert.match(JSON.stringify(vendor.toolResultIn(secondRequest.body)), /Paris: sunny, 24 C/);
      if (vendor.name === "AnthropicProvider") {
        assert.ok(secondRequest.raw.includes(JSON.stringify(thinking)), "thinking goes back byte for byte");
        assert.ok(secondRequest.raw.includes(JSON.stringify(redacted)), "redacted_thinking goes back byte for byte");
      }
    });
  });

  describe(`an Agent on ${vendor.name} retries a 429 as the server asks`, () => {
    test("Retry-After: 1 gives a RETRY event with delayMs about 1000, then the run completes", async () => {
      await using agent = new Agent({ provider: vendor.provider(), retry: { initialDelayMs: 10 } });
      const retries: Array<{ delayMs: number; attempt: number; error: Error }> = [];
      agent.hooks.on(HookEvent.RETRY, (e) => {
        retries.push({ delayMs: e.data.delayMs, attempt: e.data.attempt, error: e.data.error });
      });
      server.reply(vendor.rateLimited({ "retry-after": "1" }), vendor.textTurn("Done."));
      const first = server.requests.length;
      const stream = agent.runStream("hello");
      const waits: RunEvent[] = [];
      for await (const event of stream) if (event.type === "waiting") waits.push(event);
      const result = await stream.result;

      assert.equal(result.status, "completed", result.error?.message);
      assert.equal(result.text, "Done.");
      assert.equal(retries.length, 1);
      assert.ok(
        Math.abs(retries[0].delayMs - 1000) <= 50,
        `delayMs ${retries[0].delayMs} should honour Retry-After: 1, not the 10 ms backoff`,
      );
      assert.ok(retries[0].error instanceof ProviderError && retries[0].error.kind === "rate_limit");
      assert.ok(waits.length >= 1, "the stream tells the consumer it is waiting");
      assert.equal(
        server.requests.length - first,
        2,
        "one refused request, one retried by the engine (the SDK does not retry)",
      );
    });
  });

  describe(`an Agent on ${vendor.name} survives a garbage reply`, () => {
    test("the run fails with a typed bad_response error", async () => {
      await using agent = new Agent({ provider: vendor.provider() });
      server.reply({ status: 200, headers: { "content-type": "application/json" }, body: "}{ definitely not JSON" });
      const result = await agent.run("hello");
      assert.equal(result.status, "failed");
      assert.ok(result.error instanceof ProviderError, String(result.error));
      assert.equal(result.error.kind, "bad_response");
    });
  });
}

describe("an Agent asks again after unreadable tool arguments (OpenAIProvider)", () => {
  test("the engine sees the parse error (no throw), asks the same question again, and the run completes", async () => {
    const calls: Array<Record<string, unknown>> = [];
    await using agent = new Agent({
      provider: new OpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: "sk-test" }),
      tools: [weatherTool(calls)],
    });
    const recoveries: string[] = [];
    agent.hooks.on(HookEvent.RECOVERY, (e) => {
      recoveries.push(e.data.reason);
    });
    server.reply(
      openAITurn({
        toolCalls: [{ id: "call_bad", name: "get_weather", arguments: '{"city": Paris' }],
        finishReason: "tool_calls",
      }),
      openAITurn({
        toolCalls: [{ id: "call_good", name: "get_weather", arguments: '{"city": "Paris"}' }],
        finishReason: "tool_calls",
      }),
      openAITurn({ text: "Sunny.", finishReason: "stop" }),
    );
    const first = server.requests.length;
    const result = await agent.run("Weather in Paris?");
    assert.equal(result.status, "completed", result.error?.message);
    assert.deepEqual(calls, [{ city: "Paris" }], "only the readable call ran");
    assert.deepEqual(recoveries, ["malformed_tool_input"]);
    assert.deepEqual(
      server.requests[first + 1].body.messages,
      server.requests[first].body.messages,
      "the unreadable reply was asked again",
    );
  });
});
