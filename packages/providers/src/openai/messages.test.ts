import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Message } from "@harnessx/core";
import OpenAI from "openai";
import { OpenAIProvider } from "./provider.js";
import { withEnv } from "../test-support/env.js";
import { openAITurn } from "../test-support/openai-wire.js";
import { collect, modelRequest, WEATHER_TOOL } from "../test-support/requests.js";
import { FakeServer } from "../test-support/server.js";

let server: FakeServer;
before(async () => {
  server = await FakeServer.start();
});
after(() => server.close());

const conversation: Message[] = [
  { role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?" }] },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "two cities", signature: "sig-from-elsewhere" },
      { type: "provider", provider: "anthropic", data: { type: "redacted_thinking", data: "xyz" } },
      { type: "text", text: "Checking both." },
      { type: "tool_call", id: "call_1", name: "get_weather", input: { city: "Paris" } },
      {
        type: "tool_call",
        id: "call_2",
        name: "get_weather",
        input: {},
        rawInput: '{"city": Ro',
        parseError: "bad JSON",
      },
    ],
  },
  {
    role: "user",
    content: [
      { type: "tool_result", toolCallId: "call_1", name: "get_weather", content: "sunny", isError: false },
      {
        type: "tool_result",
        toolCallId: "call_2",
        name: "get_weather",
        content: "Error: could not read the arguments",
        isError: true,
      },
    ],
  },
  { role: "assistant", content: [{ type: "text", text: "Paris is sunny." }] },
  {
    role: "user",
    content: [
      { type: "text", text: "Thanks. " },
      { type: "text", text: "And tomorrow?" },
    ],
  },
];

describe("OpenAIProvider sends the conversation in Chat Completions form", () => {
  test("system, user text, assistant text with tool_calls, tool messages; reasoning and provider blocks left out", async () => {
    const provider = new OpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: "sk-test" });
    server.reply(openAITurn({ text: "ok", finishReason: "stop" }));
    await provider.complete(modelRequest({ messages: conversation, temperature: 0.2 }));
    const request = server.requests.at(-1)!;
    assert.equal(request.path, "/v1/chat/completions");
    assert.equal(request.headers.authorization, "Bearer sk-test");
    assert.deepEqual(request.body.messages, [
      { role: "system", content: "You are terse." },
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: "Checking both.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "call_2", type: "function", function: { name: "get_weather", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny" },
      { role: "tool", tool_call_id: "call_2", content: "Error: could not read the arguments" },
      { role: "assistant", content: "Paris is sunny." },
      {
        role: "user",
        content: [
          { type: "text", text: "Thanks. " },
          { type: "text", text: "And tomorrow?" },
        ],
      },
    ]);
    assert.deepEqual(request.body.tools, [
      {
        type: "function",
        function: { name: "get_weather", description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.inputSchema },
      },
    ]);
    assert.equal(request.body.model, "test-model");
    assert.equal(request.body.max_tokens, 512, "a compatible server gets max_tokens");
    assert.equal(request.body.temperature, 0.2);
    assert.equal(request.body.stream, false);
  });

  test("streaming asks for usage; no tools means no tools field; maxTokensField is obeyed", async () => {
    const provider = new OpenAIProvider({
      baseURL: `${server.url}/v1`,
      apiKey: "sk-test",
      maxTokensField: "max_completion_tokens",
    });
    server.reply(openAITurn({ text: "ok", finishReason: "stop" }));
    await collect(provider.stream(modelRequest({ tools: [], stream: true, system: "" })));
    const body = server.requests.at(-1)!.body;
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal("tools" in body, false);
    assert.equal(body.max_completion_tokens, 512);
    assert.equal("max_tokens" in body, false);
    assert.equal(body.messages[0]!.role, "user", "an empty system prompt is not sent");
  });

  test("an empty request model falls back to the provider's model", async () => {
    const provider = new OpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: "sk-test", model: "llama-3.1-8b" });
    assert.equal(provider.defaultModel, "llama-3.1-8b");
    server.reply(openAITurn({ text: "ok", finishReason: "stop", model: "" }));
    const reply = await provider.complete(modelRequest({ model: "" }));
    assert.equal(server.requests.at(-1)!.body.model, "llama-3.1-8b");
    assert.equal(reply.model, "llama-3.1-8b");
  });
});

describe("OpenAIProvider options read the environment", () => {
  test("OPENAI_BASE_URL and OPENAI_API_KEY are used when not given; a named server needs no key", async () => {
    await withEnv({ OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: "sk-from-env" }, async () => {
      server.reply(openAITurn({ text: "ok", finishReason: "stop" }));
      await new OpenAIProvider().complete(modelRequest());
      assert.equal(server.requests.at(-1)!.headers.authorization, "Bearer sk-from-env");
    });
    await withEnv({ OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: undefined }, async () => {
      server.reply(openAITurn({ text: "ok", finishReason: "stop" }));
      const reply = await new OpenAIProvider({ name: "llama.cpp" }).complete(modelRequest());
      assert.equal(reply.provider, "llama.cpp");
      assert.equal(server.requests.at(-1)!.path, "/v1/chat/completions");
    });
  });

  test("no key and no server is a configuration error naming OPENAI_API_KEY", async () => {
    await withEnv({ OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined }, () => {
      assert.throws(
        () => new OpenAIProvider(),
        (err: Error) => err.name === "ConfigError" && /OPENAI_API_KEY/.test(err.message),
      );
    });
  });

  test("a given client is used as is, and the OpenAI host gets max_completion_tokens", async () => {
    const client = new OpenAI({
      apiKey: "sk-client",
      baseURL: "https://api.openai.com/v1",
      fetch: (url, init) => fetch(String(url).replace("https://api.openai.com", server.url), init),
    });
    server.reply(openAITurn({ text: "ok", finishReason: "stop" }));
    await new OpenAIProvider({ client }).complete(modelRequest());
    const request = server.requests.at(-1)!;
    assert.equal(request.headers.authorization, "Bearer sk-client");
    assert.equal(request.body.max_completion_tokens, 512);
    assert.equal("max_tokens" in request.body, false);
  });
});
