import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent, tool, type Message } from "@harnessx/core";
import { HookEvent, type LlmResponseData } from "@harnessx/core/extension";
import { GenAI, mapSpans, type TraceEvent } from "@harnessx/core/tracing";
import { promptCacheExtension } from "@harnessx/prompt-cache";
import type { AnthropicProvider } from "./provider.js";
import { anthropicTurn } from "../test-support/anthropic-wire.js";
import { modelRequest, WEATHER_TOOL } from "../test-support/requests.js";
import type { FakeServer, WireBlock, WireBody } from "../test-support/server.js";
import { useLocalAnthropic } from "../test-support/local-anthropic.js";

let server: FakeServer;
let provider: AnthropicProvider;
useLocalAnthropic((started, pointed) => ([server, provider] = [started, pointed]));

const text = (t: string) => ({ type: "text" as const, text: t });
const history: Message[] = [
  { role: "user", content: [text("What is the weather in Paris?")] },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "Use the tool.", signature: "sig==" },
      { type: "tool_call", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
    ],
  },
  {
    role: "user",
    content: [{ type: "tool_result", toolCallId: "toolu_1", name: "get_weather", content: "sunny", isError: false }],
  },
  { role: "user", content: [text("And in Rome?")] },
];

/** Sends one request through the SDK and returns the body the server received. */
async function sentBody(request: Parameters<AnthropicProvider["complete"]>[0]) {
  server.reply(anthropicTurn({ content: [text("ok")], stopReason: "end_turn" }));
  await provider.complete(request);
  return server.requests.at(-1)!.body;
}

/** Every place of a body that carries a cache_control marker, as "tools[i]", "system[i]" or "messages[i].content[j]". */
function markers(body: WireBody): string[] {
  const found: string[] = [];
  const marked = (blocks: readonly WireBlock[], at: (i: number) => string): void => {
    for (const [i, block] of blocks.entries()) if (block.cache_control) found.push(at(i));
  };
  marked(body.tools ?? [], (i) => `tools[${i}]`);
  if (Array.isArray(body.system)) marked(body.system, (i) => `system[${i}]`);
  for (const [i, message] of body.messages.entries()) {
    if (Array.isArray(message.content)) marked(message.content, (j) => `messages[${i}].content[${j}]`);
  }
  return found;
}

describe("AnthropicProvider maps cache breakpoints to cache_control markers", () => {
  test("after the tools, the system prompt and a message: the last tool, the system block and the message's last block", async () => {
    const body = await sentBody(
      modelRequest({
        messages: history,
        cacheBreakpoints: [{ after: "tools" }, { after: "system" }, { after: "message", index: 1 }],
      }),
    );
    assert.deepEqual(markers(body), ["tools[0]", "system[0]", "messages[1].content[1]"]);
    assert.deepEqual(body.system, [{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }]);
    assert.deepEqual(body.messages[1].content?.[1], {
      type: "tool_use",
      id: "toolu_1",
      name: "get_weather",
      input: { city: "Paris" },
      cache_control: { type: "ephemeral" },
    });
  });

  test("a message merged into its turn marks the turn's last block (tool results first, then the text)", async () => {
    const body = await sentBody(
      modelRequest({ messages: history, cacheBreakpoints: [{ after: "message", index: 2 }] }),
    );
    assert.equal(body.messages.length, 3);
    assert.deepEqual(markers(body), ["messages[2].content[1]"]);
    assert.deepEqual(body.messages[2].content?.[1], {
      type: "text",
      text: "And in Rome?",
      cache_control: { type: "ephemeral" },
    });
  });

  test("at most four: tools and system first, then the newest turns; a turn with only thinking is left unmarked", async () => {
    const onlyThinking: Message = {
      role: "assistant",
      content: [{ type: "reasoning", text: "Hm.", signature: "s2==" }],
    };
    const messages: Message[] = [
      history[0],
      onlyThinking,
      { role: "user", content: [text("go on")] },
      { role: "assistant", content: [text("Sure.")] },
      { role: "user", content: [text("Rome?")] },
    ];
    const all = messages.map((_, index) => ({ after: "message" as const, index }));
    const body = await sentBody(
      modelRequest({
        messages,
        cacheBreakpoints: [{ after: "system" }, { after: "tools" }, ...all, { after: "message", index: 4 }],
      }),
    );
    assert.deepEqual(markers(body), ["tools[0]", "system[0]", "messages[3].content[0]", "messages[4].content[0]"]);
    const fewer = await sentBody(
      modelRequest({
        messages: messages.slice(0, 2),
        tools: [],
        system: "",
        cacheBreakpoints: [{ after: "tools" }, { after: "system" }, { after: "message", index: 1 }],
      }),
    );
    assert.deepEqual(markers(fewer), [], "no tools, no system and a thinking-only turn: nothing to mark");
  });

  test("without breakpoints the body has no marker, and marking never changes the history's own blocks", async () => {
    const plain = await sentBody(modelRequest({ messages: history }));
    assert.doesNotMatch(server.requests.at(-1)!.raw, /cache_control/);
    assert.equal(plain.system, "You are terse.");
    const before = JSON.stringify(history);
    await sentBody(modelRequest({ messages: history, cacheBreakpoints: [{ after: "message", index: 3 }] }));
    assert.equal(JSON.stringify(history), before);
    assert.equal(WEATHER_TOOL.description, "Current weather of a city.");
  });
});

describe("an agent with promptCacheExtension on Anthropic", () => {
  test("sends the markers, and the server's cache reads and writes reach LLM_RESPONSE, the cost and the chat spans", async () => {
    const weather = tool({
      name: "get_weather",
      description: WEATHER_TOOL.description,
      inputSchema: WEATHER_TOOL.inputSchema,
      execute: () => "sunny",
    });
    const agent = new Agent({
      provider,
      model: "claude-sonnet-4-5",
      system: "You are terse.",
      tools: [weather],
      extensions: [promptCacheExtension()],
    });
    const events: TraceEvent[] = [];
    for (const kind of [
      HookEvent.AGENT_START,
      HookEvent.AGENT_END,
      HookEvent.LLM_REQUEST,
      HookEvent.LLM_RESPONSE,
      HookEvent.TOOL_CALL_START,
      HookEvent.TOOL_CALL_END,
    ]) {
      agent.hooks.on(
        kind,
        (ctx) => void events.push({ kind, ts: Date.now(), runId: ctx.runId, data: ctx.data } as TraceEvent),
      );
    }
    const first = server.requests.length;
    server.reply(
      anthropicTurn({
        content: [{ type: "tool_use", id: "toolu_9", name: "get_weather", input: { city: "Paris" } }],
        stopReason: "tool_use",
        usage: { input_tokens: 20, output_tokens: 30, cache_creation_input_tokens: 3000 },
      }),
      anthropicTurn({
        content: [text("Sunny.")],
        stopReason: "end_turn",
        usage: { input_tokens: 40, output_tokens: 5, cache_read_input_tokens: 3000, cache_creation_input_tokens: 60 },
      }),
    );
    const result = await agent.run("Weather in Paris?");
    assert.equal(result.status, "completed");
    const [one, two] = server.requests.slice(first).map((r) => markers(r.body));
    assert.deepEqual(one, ["tools[0]", "system[0]", "messages[0].content[0]"]);
    assert.deepEqual(two, ["tools[0]", "system[0]", "messages[1].content[0]", "messages[2].content[0]"]);

    const responses = events.filter((e) => e.kind === HookEvent.LLM_RESPONSE).map((e) => e.data as LlmResponseData);
    assert.deepEqual(
      responses.map((r) => r.usage),
      [
        { inputTokens: 3020, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 3000 },
        { inputTokens: 3100, outputTokens: 5, cacheReadTokens: 3000, cacheWriteTokens: 60 },
      ],
    );
    assert.deepEqual(result.usage.cacheReadTokens, 3000);
    const [written, read] = responses.map((r) => r.cost);
    assert.ok(written.usd !== null && read.usd !== null, "claude-sonnet-4-5 has a price");
    assert.ok(
      read.inputUsd < written.inputUsd,
      `3000 tokens read cost less than 3000 written (${read.inputUsd} < ${written.inputUsd})`,
    );

    const chats = mapSpans(events).filter((s) => s.role === "chat");
    assert.deepEqual(
      chats.map((s) => [s.attributes[GenAI.USAGE_CACHE_READ], s.attributes[GenAI.USAGE_CACHE_CREATION]]),
      [
        [0, 3000],
        [3000, 60],
      ],
    );
  });
});
