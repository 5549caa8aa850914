import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CancelledError } from "@harnessx/core";
import { OpenAIProvider } from "./provider.js";
import { openAIErrorReply } from "../test-support/openai-wire.js";
import { collect, modelRequest } from "../test-support/requests.js";
import { FakeServer } from "../test-support/server.js";
import { isKind } from "../test-support/assertions.js";

let server: FakeServer;
let provider: OpenAIProvider;
before(async () => {
  server = await FakeServer.start();
  provider = new OpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: "sk-test" });
});
after(() => server.close());

describe("OpenAIProvider maps HTTP errors to ProviderError kinds, without retrying itself", () => {
  test("429 with Retry-After seconds is rate_limit with retryAfterMs, asked once", async () => {
    const before = server.requests.length;
    server.reply(
      openAIErrorReply(
        429,
        { message: "Rate limit reached for gpt-4o-mini", type: "tokens", code: "rate_limit_exceeded" },
        { "retry-after": "2" },
      ),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("rate_limit", (e) => {
        assert.equal(e.retryAfterMs, 2000);
        assert.equal(e.status, 429);
        assert.equal(e.retryable, true);
      }),
    );
    assert.equal(server.requests.length - before, 1, "the SDK made exactly one request (maxRetries: 0)");
  });

  test("retry-after-ms wins over retry-after", async () => {
    server.reply(
      openAIErrorReply(
        429,
        { message: "slow down", type: "requests" },
        { "retry-after-ms": "1500", "retry-after": "9" },
      ),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("rate_limit", (e) => assert.equal(e.retryAfterMs, 1500)),
    );
  });

  test("5xx is a retryable server error; 401 is auth; a plain 400 is invalid_request", async () => {
    server.reply(openAIErrorReply(503, { message: "The server is overloaded", type: "server_error" }));
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("server", (e) => assert.equal(e.retryable, true)),
    );
    server.reply(
      openAIErrorReply(401, {
        message: "Incorrect API key provided",
        type: "invalid_request_error",
        code: "invalid_api_key",
      }),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("auth", (e) => assert.match(e.message, /API key/)),
    );
    server.reply(
      openAIErrorReply(400, {
        message: "Invalid value for 'temperature'",
        type: "invalid_request_error",
        param: "temperature",
      }),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("invalid_request", (e) => assert.equal(e.retryable, false)),
    );
  });

  test("unsupported_parameter and unsupported_value are unsupported (a fallback may answer), not retryable", async () => {
    server.reply(
      openAIErrorReply(400, {
        message: "Unsupported parameter: 'temperature' is not supported with this model.",
        type: "invalid_request_error",
        param: "temperature",
        code: "unsupported_parameter",
      }),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("unsupported", (e) => assert.equal(e.retryable, false)),
    );
    server.reply(
      openAIErrorReply(400, {
        message: "Unsupported value: 'reasoning_effort' does not support 'minimal' with this model.",
        type: "invalid_request_error",
        code: "unsupported_value",
      }),
    );
    await assert.rejects(provider.complete(modelRequest()), isKind("unsupported"));
  });

  test("404 names what to check", async () => {
    server.reply({ status: 404, headers: { "content-type": "text/plain" }, body: "404 page not found" });
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("invalid_request", (e) => assert.match(e.message, /baseURL ends in \/v1/)),
    );
  });

  test("context_length_exceeded is context_overflow", async () => {
    server.reply(
      openAIErrorReply(400, {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      }),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("context_overflow", (e) => assert.equal(e.status, 400)),
    );
  });

  test("llama.cpp's exceed_context_size_error is context_overflow", async () => {
    server.reply({
      status: 400,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        error: {
          code: 400,
          message: "the request exceeds the available context size, try increasing it",
          type: "exceed_context_size_error",
          n_prompt_tokens: 9000,
          n_ctx: 8192,
        },
      }),
    });
    await assert.rejects(provider.complete(modelRequest()), isKind("context_overflow"));
  });

  test("a reply budget over the model's limit is reply_limit with the limit", async () => {
    server.reply(
      openAIErrorReply(400, {
        message:
          "max_tokens is too large: 100000. This model supports at most 16384 completion tokens, whereas you provided 100000.",
        type: "invalid_request_error",
        param: "max_tokens",
        code: "invalid_value",
      }),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("reply_limit", (e) => assert.equal(e.limit, 16384)),
    );
    server.reply(
      openAIErrorReply(400, {
        message:
          "This model's maximum context length is 8192 tokens. However, you requested 10000 tokens (2000 in the messages, 8000 in the completion). Please reduce the length of the messages or completion.",
        type: "BadRequestError",
      }),
    );
    await assert.rejects(
      provider.complete(modelRequest()),
      isKind("reply_limit", (e) => assert.equal(e.limit, 6192)),
    );
  });

  test("an error object inside a stream becomes a ProviderError", async () => {
    server.reply({
      events: [
        `data: ${JSON.stringify({ error: { message: "The server had an error while processing your request.", type: "server_error" } })}\n\n`,
      ],
    });
    await assert.rejects(collect(provider.stream(modelRequest({ stream: true }))), isKind("server"));
  });
});

describe("OpenAIProvider reports network failures and cancellation", () => {
  test("an unreachable server is a connection error", async () => {
    const closed = await FakeServer.start();
    const url = closed.url;
    await closed.close();
    const offline = new OpenAIProvider({ baseURL: `${url}/v1`, apiKey: "sk-test" });
    await assert.rejects(
      offline.complete(modelRequest()),
      isKind("connection", (e) => assert.equal(e.retryable, true)),
    );
  });

  test("the SDK timeout is a timeout error", async () => {
    const slow = new OpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: "sk-test", timeoutMs: 50 });
    server.reply({ ...openAIErrorReply(500, { message: "late", type: "server_error" }), delayMs: 2000 });
    await assert.rejects(slow.complete(modelRequest()), isKind("timeout"));
  });

  test("aborting the caller's signal is a cancellation; a timeout signal is a timeout", async () => {
    server.reply({ ...openAIErrorReply(500, { message: "late", type: "server_error" }), delayMs: 2000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(
      provider.complete(modelRequest(), controller.signal),
      (err: unknown) => err instanceof CancelledError,
    );
    server.reply({ ...openAIErrorReply(500, { message: "late", type: "server_error" }), delayMs: 2000 });
    await assert.rejects(
      collect(provider.stream(modelRequest({ stream: true }), AbortSignal.timeout(30))),
      isKind("timeout"),
    );
  });
});
