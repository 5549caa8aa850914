import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CancelledError } from "@harnessx/core";
import Anthropic from "@anthropic-ai/sdk";
import { AnthropicProvider } from "./provider.js";
import { anthropicErrorReply } from "../test-support/anthropic-wire.js";
import { collect, modelRequest } from "../test-support/requests.js";
import { FakeServer } from "../test-support/server.js";
import { useLocalAnthropic } from "../test-support/local-anthropic.js";
import { isKind } from "../test-support/assertions.js";

let server: FakeServer;
let provider: AnthropicProvider;
useLocalAnthropic((started, pointed) => ([server, provider] = [started, pointed]));

describe("AnthropicProvider maps HTTP errors to ProviderError kinds, without retrying itself", () => {
  test("429 with a Retry-After HTTP date is rate_limit with retryAfterMs, asked once", async () => {
    const before = server.requests.length;
    const at = new Date(Date.now() + 5000).toUTCString();
    server.reply(
      anthropicErrorReply(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", {
        "retry-after": at,
      }),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("rate_limit", (e) => {
        assert.ok(
          e.retryAfterMs !== undefined && e.retryAfterMs > 2000 && e.retryAfterMs <= 5000,
          `retryAfterMs ${e.retryAfterMs}`,
        );
        assert.equal(e.status, 429);
      }),
    );
    assert.equal(server.requests.length - before, 1, "the SDK made exactly one request (maxRetries: 0)");
  });

  test("529 overloaded is a retryable server error; 401 is auth", async () => {
    server.reply(anthropicErrorReply(529, "overloaded_error", "Overloaded"));
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("server", (e) => assert.equal(e.retryable, true)),
    );
    server.reply(anthropicErrorReply(401, "authentication_error", "invalid x-api-key"));
    await assert.rejects(provider.complete(modelRequest()), isKind("auth"));
  });

  test("'prompt is too long' is context_overflow", async () => {
    server.reply(
      anthropicErrorReply(400, "invalid_request_error", "prompt is too long: 208310 tokens > 200000 maximum"),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("context_overflow", (e) => assert.equal(e.retryable, false)),
    );
  });

  test("a 400 saying the model does not support a feature is unsupported; another 400 stays invalid_request", async () => {
    server.reply(
      anthropicErrorReply(400, "invalid_request_error", "'claude-3-haiku-20240307' does not support thinking."),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("unsupported", (e) => assert.equal(e.retryable, false)),
    );
    server.reply(
      anthropicErrorReply(
        400,
        "invalid_request_error",
        'messages: roles must alternate between "user" and "assistant"',
      ),
    );
    await assert.rejects(provider.complete(modelRequest()), isKind("invalid_request"));
  });

  test("a reply budget over the model's limit is reply_limit with the budget that fits", async () => {
    server.reply(
      anthropicErrorReply(
        400,
        "invalid_request_error",
        "max_tokens: 128000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5-20250929",
      ),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("reply_limit", (e) => assert.equal(e.limit, 64000)),
    );
    server.reply(
      anthropicErrorReply(
        400,
        "invalid_request_error",
        "input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again",
      ),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("reply_limit", (e) => assert.equal(e.limit, 5000)),
    );
  });

  test("an error event inside a stream is mapped by its type", async () => {
    server.reply({
      events: [
        `event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } })}\n\n`,
        `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}\n\n`,
      ],
    });
    await assert.rejects(
      collect(provider.stream(modelRequest({ stream: true }))),
      isKind("server", (e) => assert.equal(e.retryable, true)),
    );
    server.reply({
      events: [
        `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "slow down" } })}\n\n`,
      ],
    });
    await assert.rejects(collect(provider.stream(modelRequest({ stream: true }))), isKind("rate_limit"));
  });
});

describe("AnthropicProvider reports network failures and cancellation", () => {
  test("an unreachable server is a connection error", async () => {
    const closed = await FakeServer.start();
    const url = closed.url;
    await closed.close();
    const offline = new AnthropicProvider({ baseURL: url, apiKey: "k" });
    await assert.rejects(offline.complete(modelRequest()), isKind("connection"));
  });

  test("no credentials anywhere is an auth error naming ANTHROPIC_API_KEY", async () => {
    const client = new Anthropic({ apiKey: null, authToken: null, baseURL: server.url, maxRetries: 0 });
    const anonymous = new AnthropicProvider({ client });
    await assert.rejects(
      anonymous.complete(modelRequest()),
      isKind("auth", (e) => assert.match(e.message, /ANTHROPIC_API_KEY/)),
    );
  });

  test("the SDK timeout is a timeout error", async () => {
    const slow = new AnthropicProvider({ baseURL: server.url, apiKey: "k", timeoutMs: 50 });
    server.reply({ ...anthropicErrorReply(500, "api_error", "late"), delayMs: 2000 });
    await assert.rejects(slow.complete(modelRequest()), isKind("timeout"));
  });

  test("aborting the caller's signal mid-stream is a cancellation", async () => {
    const start = `event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } })}\n\n`;
    server.reply({
      keepOpen: true,
      events: [
        start,
        `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n`,
        `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}\n\n`,
      ],
    });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const event of provider.stream(modelRequest({ stream: true }), controller.signal)) {
        seen.push(event.type);
        controller.abort();
      }
    })();
    // The server leaves the stream open after its events; only the abort ends it.
    await assert.rejects(run, (err: unknown) => err instanceof CancelledError);
    assert.deepEqual(seen, ["text_delta"]);
  });
});
