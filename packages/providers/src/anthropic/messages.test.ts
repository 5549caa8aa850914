import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Message } from "@harnessx/core";
import { AnthropicProvider } from "./provider.js";
import { anthropicTurn, type AnthropicTurn } from "../test-support/anthropic-wire.js";
import { withEnv } from "../test-support/env.js";
import { collect, finalResponse, modelRequest, WEATHER_TOOL } from "../test-support/requests.js";
import type { FakeServer } from "../test-support/server.js";
import { useLocalAnthropic } from "../test-support/local-anthropic.js";

let server: FakeServer;
let provider: AnthropicProvider;
useLocalAnthropic((started, pointed) => ([server, provider] = [started, pointed]));

const thinking = {
  type: "thinking",
  thinking: "Two cities \u2014 call the tool twice.\n",
  signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds/+==",
};
const redacted = {
  type: "redacted_thinking",
  data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj",
};
const toolTurn: AnthropicTurn = {
  content: [thinking, redacted, { type: "tool_use", id: "toolu_01A", name: "get_weather", input: { city: "Paris" } }],
  stopReason: "tool_use",
};

describe("AnthropicProvider passes thinking and opaque blocks back unchanged", () => {
  for (const streaming of [false, true]) {
    test(`the next request carries the exact thinking and redacted_thinking bytes (${streaming ? "streamed" : "plain"} reply)`, async () => {
      server.reply(
        anthropicTurn(toolTurn),
        anthropicTurn({ content: [{ type: "text", text: "Sunny." }], stopReason: "end_turn" }),
      );
      const first = streaming
        ? finalResponse(await collect(provider.stream(modelRequest({ stream: true }))))
        : await provider.complete(modelRequest());
      const history: Message[] = [
        ...modelRequest().messages,
        { role: "assistant", content: first.content },
        {
          role: "user",
          content: [
            { type: "tool_result", toolCallId: "toolu_01A", name: "get_weather", content: "sunny", isError: false },
          ],
        },
      ];
      await provider.complete(modelRequest({ messages: history }));
      const next = server.requests.at(-1)!;
      assert.ok(next.raw.includes(JSON.stringify(thinking)), "the thinking block is sent byte for byte");
      assert.ok(next.raw.includes(JSON.stringify(redacted)), "the redacted_thinking block is sent byte for byte");
      assert.deepEqual(next.body.messages[1], {
        role: "assistant",
        content: [
          thinking,
          redacted,
          { type: "tool_use", id: "toolu_01A", name: "get_weather", input: { city: "Paris" } },
        ],
      });
      assert.deepEqual(next.body.messages[2], {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_01A", content: "sunny" }],
      });
    });
  }
});

describe("AnthropicProvider sends the conversation in Messages API form", () => {
  test("system and tools as their own fields; same-role turns merged with tool results first; foreign blocks left out", async () => {
    server.reply(anthropicTurn({ content: [{ type: "text", text: "ok" }], stopReason: "end_turn" }));
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "Weather in Paris?" }] },
      {
        role: "user",
        content: [
          { type: "text", text: "" },
          { type: "text", text: "Be quick." },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "unsigned reasoning from another model" },
          { type: "provider", provider: "openai", data: { opaque: true } },
          { type: "text", text: "" },
          { type: "tool_call", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "tool_call", id: "toolu_2", name: "get_weather", input: {}, rawInput: "{oops", parseError: "bad" },
        ],
      },
      { role: "user", content: [{ type: "text", text: "Also, hurry." }] },
      {
        role: "user",
        content: [
          { type: "tool_result", toolCallId: "toolu_1", name: "get_weather", content: "sunny", isError: false },
          {
            type: "tool_result",
            toolCallId: "toolu_2",
            name: "get_weather",
            content: "Error: could not read the arguments",
            isError: true,
          },
        ],
      },
    ];
    await provider.complete(modelRequest({ messages, temperature: 0.3 }));
    const request = server.requests.at(-1)!;
    assert.equal(request.path, "/v1/messages");
    assert.equal(request.headers.authorization, "Bearer sk-ant-test", "SDK 1.x sends the key as a bearer token");
    assert.ok(request.headers["anthropic-version"], "the SDK sends its API version");
    assert.equal(request.body.system, "You are terse.");
    assert.equal(request.body.max_tokens, 512);
    assert.equal(request.body.temperature, 0.3);
    assert.deepEqual(request.body.tools, [
      { name: "get_weather", description: WEATHER_TOOL.description, input_schema: WEATHER_TOOL.inputSchema },
    ]);
    assert.deepEqual(request.body.messages, [
      {
        role: "user",
        content: [
          { type: "text", text: "Weather in Paris?" },
          { type: "text", text: "Be quick." },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "sunny" },
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            content: "Error: could not read the arguments",
            is_error: true,
          },
          { type: "text", text: "Also, hurry." },
        ],
      },
    ]);
  });

  test("thinking option is sent and temperature then left out; no tools, no system means neither field", async () => {
    const thinker = new AnthropicProvider({
      baseURL: server.url,
      apiKey: "k",
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    server.reply(anthropicTurn({ content: [{ type: "text", text: "ok" }], stopReason: "end_turn" }));
    await collect(thinker.stream(modelRequest({ stream: true, tools: [], system: "", temperature: 0.5 })));
    const body = server.requests.at(-1)!.body;
    assert.deepEqual(body.thinking, { type: "enabled", budget_tokens: 1024 });
    assert.equal(body.stream, true);
    assert.equal("temperature" in body, false);
    assert.equal("tools" in body, false);
    assert.equal("system" in body, false);
  });

  test("ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY and ANTHROPIC_MODEL are read when not given", async () => {
    await withEnv(
      { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "sk-ant-env", ANTHROPIC_MODEL: "claude-haiku-4-5" },
      async () => {
        const fromEnv = new AnthropicProvider();
        assert.equal(fromEnv.defaultModel, "claude-haiku-4-5");
        server.reply(anthropicTurn({ content: [{ type: "text", text: "ok" }], stopReason: "end_turn" }));
        const reply = await fromEnv.complete(modelRequest({ model: "" }));
        const request = server.requests.at(-1)!;
        assert.equal(request.headers.authorization, "Bearer sk-ant-env");
        assert.equal(request.body.model, "claude-haiku-4-5");
        assert.equal(reply.provider, "anthropic");
      },
    );
  });
});
