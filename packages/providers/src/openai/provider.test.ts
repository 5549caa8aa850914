import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ProviderError } from "@harnessx/core";
import { OpenAIProvider } from "./provider.js";
import { DONE, openAITurn, sseEvent, type OpenAITurn } from "../test-support/openai-wire.js";
import { collect, finalResponse, modelRequest, streamedArguments, streamedText } from "../test-support/requests.js";
import { FakeServer, jsonReply, pieces } from "../test-support/server.js";

let server: FakeServer;
let provider: OpenAIProvider;
before(async () => {
  server = await FakeServer.start();
  provider = new OpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: "sk-test" });
});
after(() => server.close());

/** Asks the same turn once plain and once streamed; both must agree. */
async function bothWays(turn: OpenAITurn) {
  server.reply(openAITurn(turn), openAITurn(turn));
  const plain = await provider.complete(modelRequest());
  const events = await collect(provider.stream(modelRequest({ stream: true })));
  return { plain, events, streamed: finalResponse(events) };
}

describe("OpenAIProvider reads text replies and usage", () => {
  test("text, id, model and usage with cached prompt tokens", async () => {
    const { plain, streamed, events } = await bothWays({
      id: "chatcmpl-abc",
      model: "gpt-4o-mini-2024-07-18",
      text: "It is sunny in Paris today.",
      finishReason: "stop",
      usage: { prompt: 1200, completion: 9, cached: 1024 },
    });
    assert.deepEqual(plain, {
      id: "chatcmpl-abc",
      model: "gpt-4o-mini-2024-07-18",
      provider: "openai",
      content: [{ type: "text", text: "It is sunny in Paris today." }],
      stopReason: "end_turn",
      usage: { inputTokens: 1200, outputTokens: 9, cacheReadTokens: 1024 },
    });
    assert.deepEqual(streamed, plain, "the streamed reply equals the plain one");
    const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : []));
    assert.deepEqual(
      deltas,
      pieces("It is sunny in Paris today.", 5),
      "each chunk's text arrives as its own delta, in order",
    );
  });

  test("reasoning_content of compatible servers becomes a reasoning block, streamed as reasoning deltas", async () => {
    const { plain, streamed, events } = await bothWays({
      reasoning: "User wants weather.",
      text: "Sunny.",
      finishReason: "stop",
    });
    assert.deepEqual(plain.content, [
      { type: "reasoning", text: "User wants weather." },
      { type: "text", text: "Sunny." },
    ]);
    assert.deepEqual(streamed, plain);
    assert.equal(streamedText(events, "reasoning_delta"), "User wants weather.");
    const firstText = events.findIndex((e) => e.type === "text_delta");
    const lastReasoning = events.findLastIndex((e) => e.type === "reasoning_delta");
    assert.ok(lastReasoning < firstText, "reasoning deltas come before text deltas, as sent");
  });
});

describe("OpenAIProvider and prompt caching", () => {
  test("cache breakpoints leave the body as it was (OpenAI caches prefixes by itself); cached_tokens are the cache reads", async () => {
    server.reply(
      openAITurn({ text: "a", finishReason: "stop" }),
      openAITurn({ text: "b", finishReason: "stop", usage: { prompt: 2048, completion: 3, cached: 1920 } }),
    );
    await provider.complete(modelRequest());
    const marked = await provider.complete(
      modelRequest({ cacheBreakpoints: [{ after: "tools" }, { after: "system" }, { after: "message", index: 0 }] }),
    );
    const [plain, withBreakpoints] = server.requests.slice(-2);
    assert.equal(withBreakpoints.raw, plain.raw);
    assert.deepEqual(marked.usage, { inputTokens: 2048, outputTokens: 3, cacheReadTokens: 1920 });
  });
});

describe("OpenAIProvider reads tool calls", () => {
  test("parallel tool calls keep their ids, names and parsed arguments, in order", async () => {
    const { plain, streamed, events } = await bothWays({
      toolCalls: [
        { id: "call_paris", name: "get_weather", arguments: '{"city":"Paris"}' },
        { id: "call_rome", name: "get_weather", arguments: '{"city":"Rome, Italy"}' },
      ],
      finishReason: "tool_calls",
      usage: { prompt: 80, completion: 40 },
    });
    assert.deepEqual(plain.content, [
      { type: "tool_call", id: "call_paris", name: "get_weather", input: { city: "Paris" } },
      { type: "tool_call", id: "call_rome", name: "get_weather", input: { city: "Rome, Italy" } },
    ]);
    assert.equal(plain.stopReason, "tool_use");
    assert.deepEqual(streamed, plain);
    assert.deepEqual(
      [...streamedArguments(events)],
      [
        ["call_paris", '{"city":"Paris"}'],
        ["call_rome", '{"city":"Rome, Italy"}'],
      ],
    );
  });

  test("unreadable argument JSON becomes a parse error on the block, never a throw", async () => {
    const { plain, streamed } = await bothWays({
      toolCalls: [{ id: "call_bad", name: "get_weather", arguments: '{"city": "Par' }],
      finishReason: "tool_calls",
    });
    const [block] = plain.content;
    assert.equal(block.type, "tool_call");
    assert.deepEqual(block.type === "tool_call" && { input: block.input, rawInput: block.rawInput }, {
      input: {},
      rawInput: '{"city": "Par',
    });
    assert.match(block.type === "tool_call" ? (block.parseError ?? "") : "", /not valid JSON/);
    assert.deepEqual(streamed, plain);
  });

  test("a server answering finish_reason stop with tool calls still yields tool_use", async () => {
    const { plain, streamed } = await bothWays({
      toolCalls: [{ id: "c1", name: "get_weather", arguments: "{}" }],
      finishReason: "stop",
    });
    assert.equal(plain.stopReason, "tool_use");
    assert.deepEqual(streamed, plain);
  });
});

describe("OpenAIProvider maps finish_reason to the canonical stop reason", () => {
  const cases = [
    ["stop", "end_turn"],
    ["tool_calls", "tool_use"],
    ["length", "max_tokens"],
    ["content_filter", "refusal"],
  ] as const;
  for (const [finish, expected] of cases) {
    test(`${finish} -> ${expected}`, async () => {
      const toolCalls =
        finish === "tool_calls" ? [{ id: "c", name: "get_weather", arguments: '{"city":"Oslo"}' }] : undefined;
      const { plain, streamed } = await bothWays({
        text: finish === "tool_calls" ? undefined : "partial",
        toolCalls,
        finishReason: finish,
      });
      assert.equal(plain.stopReason, expected);
      assert.equal(streamed.stopReason, expected);
    });
  }

  test("a refusal is kept as text with stop reason refusal", async () => {
    const { plain, streamed } = await bothWays({ refusal: "I can't help with that.", finishReason: "stop" });
    assert.deepEqual(plain.content, [{ type: "text", text: "I can't help with that." }]);
    assert.equal(plain.stopReason, "refusal");
    assert.deepEqual(streamed, plain);
  });
});

describe("OpenAIProvider turns garbage replies into bad_response errors", () => {
  const badResponse = (err: unknown) => err instanceof ProviderError && err.kind === "bad_response";

  test("a JSON content type with a body that is not JSON", async () => {
    server.reply({ status: 200, headers: { "content-type": "application/json" }, body: "<html>upstream exploded" });
    await assert.rejects(provider.complete(modelRequest()), badResponse);
  });

  test("a text body where a completion should be", async () => {
    server.reply({ status: 200, headers: { "content-type": "text/plain" }, body: "garbage" });
    await assert.rejects(
      provider.complete(modelRequest()),
      (err: unknown) => badResponse(err) && /chat completion object/.test((err as Error).message),
    );
  });

  test("JSON without choices", async () => {
    server.reply(jsonReply({ id: "x", object: "chat.completion" }));
    await assert.rejects(
      provider.complete(modelRequest()),
      (err: unknown) => badResponse(err) && /no choices/.test((err as Error).message),
    );
  });

  test("a stream event that is not JSON", async () => {
    server.reply({
      events: ['data: {"id":"x","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n', "data: {not json\n\n", DONE],
    });
    await assert.rejects(collect(provider.stream(modelRequest({ stream: true }))), badResponse);
  });

  test("a stream cut before any finish_reason", async () => {
    server.reply({
      events: [
        sseEvent({
          id: "x",
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }],
        }),
      ],
    });
    await assert.rejects(
      collect(provider.stream(modelRequest({ stream: true }))),
      (err: unknown) => badResponse(err) && /no finish_reason/.test((err as Error).message),
    );
  });
});
