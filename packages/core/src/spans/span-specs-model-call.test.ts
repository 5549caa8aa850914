// What the model call span of the one mapping carries, attribute by attribute: the names and values
// the OpenTelemetry GenAI conventions and harnessx's own namespace give a model call, and what is
// left out (absent values, content unless asked for).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { LlmRequestData, LlmResponseData } from "../hooks/payloads.js";
import { agent, CONTENT, NO_CONTENT } from "../test-support/span-specs.js";
import { chatClose, chatOpen } from "./span-specs.js";

const request = (over: Partial<LlmRequestData> = {}): LlmRequestData =>
  ({
    system: "sys",
    model: "m-1",
    maxTokens: 100,
    temperature: undefined,
    stream: false,
    messageCount: 1,
    toolCount: 0,
    prefixKey: "k",
    request: { model: "m-1", system: "", messages: [], tools: [], maxTokens: 100, stream: false },
    ...over,
  }) as LlmRequestData;
const reply = (over: Partial<LlmResponseData> = {}): LlmResponseData =>
  ({
    response: {
      id: "resp_1",
      model: "m-1",
      provider: "acme",
      content: [{ type: "text", text: "hello" }],
      stopReason: "end_turn",
      usage: { inputTokens: 3, outputTokens: 4 },
    },
    provider: "acme",
    model: "m-1-2025",
    usage: { inputTokens: 3, outputTokens: 4 },
    cost: { usd: 0.5, inputUsd: 0.25, outputUsd: 0.25, source: "prices", pricedAs: "m-1" },
    stopReason: "end_turn",
    durationMs: 2,
    ...over,
  }) as LlmResponseData;

describe("the model call span (chat)", () => {
  test("opens with the request's model, its limit and temperature", () => {
    const open = chatOpen(agent, request({ temperature: 0.2 }), 5, NO_CONTENT);
    assert.deepEqual(open, {
      role: "chat",
      name: "chat m-1",
      kind: "CLIENT",
      time: 5,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "acme",
        "gen_ai.conversation.id": "sess_1",
        "gen_ai.request.model": "m-1",
        "gen_ai.request.max_tokens": 100,
        "gen_ai.request.temperature": 0.2,
      },
      detail: { role: "chat", request: request({ temperature: 0.2 }) },
    });
  });

  test("a limit of 0 (none set) and a missing temperature are left out; a limit of 1 is kept", () => {
    assert.deepEqual(chatOpen({ name: "a" }, request({ maxTokens: 0 }), 5, NO_CONTENT).attributes, {
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "m-1",
    });
    assert.equal(
      chatOpen({ name: "a" }, request({ maxTokens: 1 }), 5, NO_CONTENT).attributes["gen_ai.request.max_tokens"],
      1,
    );
    assert.equal(
      chatOpen({ name: "a" }, request({ maxTokens: "9" as never }), 5, NO_CONTENT).attributes[
        "gen_ai.request.max_tokens"
      ],
      undefined,
    );
  });

  test("content is captured only when asked: the system prompt, the messages and the tools", () => {
    const full = {
      model: "m-1",
      system: "be brief",
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      tools: [{ name: "search", description: "finds", inputSchema: { type: "object" } }],
      maxTokens: 100,
      stream: false,
    };
    const withContent = chatOpen({ name: "a" }, request({ request: full as never }), 5, CONTENT).attributes;
    assert.equal(withContent["gen_ai.system_instructions"], JSON.stringify([{ type: "text", content: "be brief" }]));
    assert.equal(
      withContent["gen_ai.input.messages"],
      JSON.stringify([{ role: "user", parts: [{ type: "text", content: "hi" }] }]),
    );
    assert.equal(
      withContent["gen_ai.tool.definitions"],
      JSON.stringify([{ type: "function", name: "search", description: "finds", parameters: { type: "object" } }]),
    );
    assert.deepEqual(
      Object.keys(chatOpen({ name: "a" }, request({ request: full as never }), 5, NO_CONTENT).attributes).sort(),
      ["gen_ai.operation.name", "gen_ai.request.max_tokens", "gen_ai.request.model"],
    );
    const empty = chatOpen(
      { name: "a" },
      request({ request: { ...full, system: "", tools: [] } as never }),
      5,
      CONTENT,
    ).attributes;
    assert.equal(empty["gen_ai.system_instructions"], undefined, "no system prompt, no attribute");
    assert.equal(empty["gen_ai.tool.definitions"], undefined, "no tools, no attribute");
    const recorded = chatOpen(
      { name: "a" },
      request({ request: { ...full, messages: "[not recorded]", tools: "[not recorded]" } as never }),
      5,
      CONTENT,
    ).attributes;
    assert.equal(recorded["gen_ai.input.messages"], undefined, "messages a recording left out are not made up");
    assert.equal(recorded["gen_ai.tool.definitions"], undefined);
    assert.equal(
      chatOpen({ name: "a" }, request({ request: undefined as never }), 5, CONTENT).attributes["gen_ai.input.messages"],
      undefined,
    );
  });

  test("closes with the reply's id, model, finish reason, tokens and cost", () => {
    const close = chatClose(
      agent,
      request(),
      reply({ usage: { inputTokens: 3, outputTokens: 4, cacheReadTokens: 1, cacheWriteTokens: 0 } }),
      9,
      NO_CONTENT,
    );
    assert.deepEqual(close, {
      time: 9,
      attributes: {
        "gen_ai.response.id": "resp_1",
        "gen_ai.response.model": "m-1-2025",
        "gen_ai.response.finish_reasons": ["end_turn"],
        "gen_ai.usage.input_tokens": 3,
        "gen_ai.usage.output_tokens": 4,
        "gen_ai.usage.cache_read.input_tokens": 1,
        "gen_ai.usage.cache_creation.input_tokens": 0,
        "harnessx.cost.usd": 0.5,
        "gen_ai.usage.cost": 0.5,
        "langfuse.observation.cost_details": JSON.stringify({ input: 0.25, output: 0.25, total: 0.5 }),
      },
      detail: {
        role: "chat",
        request: request(),
        response: reply({ usage: { inputTokens: 3, outputTokens: 4, cacheReadTokens: 1, cacheWriteTokens: 0 } }),
      },
    });
  });

  test("an unpriced reply says why instead of a cost; another provider's reply (a fallback) names it", () => {
    const close = chatClose(
      agent,
      request(),
      reply({ cost: { usd: null, reason: "no price for m-1" }, provider: "backup" }),
      9,
      NO_CONTENT,
    );
    assert.equal(close.attributes["harnessx.cost.unpriced_reason"], "no price for m-1");
    assert.equal(close.attributes["harnessx.cost.usd"], undefined);
    assert.equal(close.attributes["gen_ai.usage.cost"], undefined);
    assert.equal(close.attributes["gen_ai.provider.name"], "backup");
    assert.equal(
      chatClose(agent, request(), reply(), 9, NO_CONTENT).attributes["gen_ai.provider.name"],
      undefined,
      "the same provider is not repeated",
    );
  });

  test("a reply without id, model, finish reason, usage or cost leaves those out", () => {
    const bare = chatClose(
      agent,
      request(),
      { response: {}, provider: "", model: "", stopReason: "", durationMs: 1 } as never,
      9,
      CONTENT,
    );
    assert.deepEqual(bare.attributes, {});
    const recorded = chatClose(
      agent,
      request(),
      { provider: "acme", model: "m", stopReason: "end_turn", durationMs: 1 } as never,
      9,
      CONTENT,
    );
    assert.deepEqual(
      recorded.attributes,
      { "gen_ai.response.model": "m", "gen_ai.response.finish_reasons": ["end_turn"] },
      "a recorded reply without its response object",
    );
  });

  test("the reply's content is captured only when asked, with the conventions' finish reason", () => {
    const captured = chatClose(agent, request(), reply(), 9, CONTENT).attributes["gen_ai.output.messages"];
    assert.equal(
      captured,
      JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "hello" }], finish_reason: "stop" }]),
    );
    assert.equal(chatClose(agent, request(), reply(), 9, NO_CONTENT).attributes["gen_ai.output.messages"], undefined);
  });
});
