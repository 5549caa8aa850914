import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProviderError } from "@harnessx/core";
import type { AnthropicProvider } from "./provider.js";
import { anthropicTurn, type AnthropicTurn } from "../test-support/anthropic-wire.js";
import { collect, finalResponse, modelRequest, streamedArguments, streamedText } from "../test-support/requests.js";
import { type FakeServer, jsonReply, pieces } from "../test-support/server.js";
import { useLocalAnthropic } from "../test-support/local-anthropic.js";

let server: FakeServer;
let provider: AnthropicProvider;
useLocalAnthropic((started, pointed) => ([server, provider] = [started, pointed]));

/** Asks the same turn once plain and once streamed; both must agree. */
async function bothWays(turn: AnthropicTurn) {
  server.reply(anthropicTurn(turn), anthropicTurn(turn));
  const plain = await provider.complete(modelRequest());
  const events = await collect(provider.stream(modelRequest({ stream: true })));
  return { plain, events, streamed: finalResponse(events) };
}

describe("AnthropicProvider reads text replies and usage", () => {
  test("text, id, model and usage with cache reads and writes", async () => {
    const { plain, streamed, events } = await bothWays({
      id: "msg_01abc",
      content: [{ type: "text", text: "It is sunny in Paris today." }],
      stopReason: "end_turn",
      usage: { input_tokens: 30, output_tokens: 12, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500 },
    });
    assert.deepEqual(plain, {
      id: "msg_01abc",
      model: "claude-sonnet-4-5-20250929",
      provider: "anthropic",
      content: [{ type: "text", text: "It is sunny in Paris today." }],
      stopReason: "end_turn",
      usage: { inputTokens: 2530, outputTokens: 12, cacheReadTokens: 2000, cacheWriteTokens: 500 },
    });
    assert.deepEqual(streamed, plain, "the streamed reply equals the plain one");
    const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : []));
    assert.deepEqual(
      deltas,
      pieces("It is sunny in Paris today.", 4),
      "each text_delta event arrives as its own delta, in order",
    );
  });
});

describe("AnthropicProvider reads tool use", () => {
  test("parallel tool_use blocks become tool calls with their inputs, in order", async () => {
    const { plain, streamed, events } = await bothWays({
      content: [
        { type: "text", text: "Checking both." },
        { type: "tool_use", id: "toolu_01A", name: "get_weather", input: { city: "Paris" } },
        {
          type: "tool_use",
          id: "toolu_01B",
          name: "get_weather",
          input: { city: "Rome", units: { system: "metric" } },
        },
      ],
      stopReason: "tool_use",
      usage: { input_tokens: 50, output_tokens: 60 },
    });
    assert.deepEqual(plain.content, [
      { type: "text", text: "Checking both." },
      { type: "tool_call", id: "toolu_01A", name: "get_weather", input: { city: "Paris" } },
      { type: "tool_call", id: "toolu_01B", name: "get_weather", input: { city: "Rome", units: { system: "metric" } } },
    ]);
    assert.equal(plain.stopReason, "tool_use");
    assert.deepEqual(streamed, plain);
    assert.deepEqual(
      [...streamedArguments(events)],
      [
        ["toolu_01A", '{"city":"Paris"}'],
        ["toolu_01B", '{"city":"Rome","units":{"system":"metric"}}'],
      ],
    );
  });

  test("streamed argument JSON that does not parse becomes a parse error on the block, never a throw", async () => {
    server.reply(
      anthropicTurn({
        content: [{ type: "tool_use", id: "toolu_cut", name: "get_weather", input: {}, rawInput: '{"city": "Par' }],
        stopReason: "max_tokens",
      }),
    );
    const reply = finalResponse(await collect(provider.stream(modelRequest({ stream: true }))));
    assert.equal(reply.stopReason, "max_tokens");
    const [block] = reply.content;
    assert.ok(block.type === "tool_call");
    assert.deepEqual({ input: block.input, rawInput: block.rawInput }, { input: {}, rawInput: '{"city": "Par' });
    assert.match(block.parseError ?? "", /not valid JSON/);
  });
});

describe("AnthropicProvider keeps thinking and opaque blocks", () => {
  test("thinking -> signed reasoning, redacted_thinking and server tool blocks -> provider blocks, streamed or not", async () => {
    const searchResult = {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_01",
      content: [
        {
          type: "web_search_result",
          url: "https://example.com",
          title: "Example",
          encrypted_content: "EqgfCi",
          page_age: null,
        },
      ],
    };
    const { plain, streamed, events } = await bothWays({
      content: [
        {
          type: "thinking",
          thinking: "The user wants the weather; I should call the tool.",
          signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds",
        },
        {
          type: "redacted_thinking",
          data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj",
        },
        { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "weather Paris" } },
        searchResult,
        { type: "text", text: "Let me check." },
      ],
      stopReason: "end_turn",
    });
    assert.deepEqual(plain.content, [
      {
        type: "reasoning",
        text: "The user wants the weather; I should call the tool.",
        signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds",
      },
      {
        type: "provider",
        provider: "anthropic",
        data: {
          type: "redacted_thinking",
          data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj",
        },
      },
      {
        type: "provider",
        provider: "anthropic",
        data: { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "weather Paris" } },
      },
      { type: "provider", provider: "anthropic", data: searchResult },
      { type: "text", text: "Let me check." },
    ]);
    assert.deepEqual(streamed, plain);
    assert.equal(streamedText(events, "reasoning_delta"), "The user wants the weather; I should call the tool.");
  });
});

describe("AnthropicProvider maps stop_reason 1:1", () => {
  for (const reason of ["end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal", "pause_turn"] as const) {
    test(reason, async () => {
      const content =
        reason === "tool_use"
          ? [{ type: "tool_use" as const, id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }]
          : [{ type: "text" as const, text: "partial" }];
      const { plain, streamed } = await bothWays({
        content,
        stopReason: reason,
        stopSequence: reason === "stop_sequence" ? "###" : null,
      });
      assert.equal(plain.stopReason, reason);
      assert.equal(streamed.stopReason, reason);
    });
  }

  test("model_context_window_exceeded is a cut reply (max_tokens)", async () => {
    const { plain, streamed } = await bothWays({
      content: [{ type: "text", text: "partial" }],
      stopReason: "model_context_window_exceeded",
    });
    assert.equal(plain.stopReason, "max_tokens");
    assert.equal(streamed.stopReason, "max_tokens");
  });
});

describe("AnthropicProvider turns garbage replies into bad_response errors", () => {
  const badResponse = (err: unknown) => err instanceof ProviderError && err.kind === "bad_response";

  test("a JSON content type with a body that is not JSON", async () => {
    server.reply({
      status: 200,
      headers: { "content-type": "application/json" },
      body: '{"id": "msg_01", "content": [',
    });
    await assert.rejects(provider.complete(modelRequest()), badResponse);
  });

  test("JSON without a content array", async () => {
    server.reply(jsonReply({ id: "msg_01", type: "message", role: "assistant" }));
    await assert.rejects(
      provider.complete(modelRequest()),
      (err: unknown) => badResponse(err) && /content array/.test((err as Error).message),
    );
  });

  test("a stream event that is not JSON", async () => {
    server.reply({
      events: [
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m","content":[]}}\n\n',
        "event: content_block_start\ndata: {oops\n\n",
      ],
    });
    await assert.rejects(collect(provider.stream(modelRequest({ stream: true }))), badResponse);
  });

  test("a stream cut before message_stop", async () => {
    const events = (
      anthropicTurn({ content: [{ type: "text", text: "Hello there" }], stopReason: "end_turn" }) as (r: never) => {
        events: string[];
      }
    )({ body: { stream: true } } as never).events;
    server.reply({ events: events.slice(0, 4) });
    await assert.rejects(
      collect(provider.stream(modelRequest({ stream: true }))),
      (err: unknown) => badResponse(err) && /message_stop/.test((err as Error).message),
    );
  });

  test("a stream whose first content block never started (the reply's content has a hole)", async () => {
    const sse = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    server.reply({
      events: [
        sse("message_start", {
          message: { id: "msg_01", model: "claude-sonnet-4-5-20250929", content: [], usage: {} },
        }),
        sse("content_block_start", { index: 1, content_block: { type: "text", text: "late" } }),
        sse("content_block_stop", { index: 1 }),
        sse("message_delta", { delta: { stop_reason: "end_turn" } }),
        sse("message_stop", {}),
      ],
    });
    await assert.rejects(
      collect(provider.stream(modelRequest({ stream: true }))),
      (err: unknown) => badResponse(err) && /content block 0 never started/.test((err as Error).message),
    );
  });
});
