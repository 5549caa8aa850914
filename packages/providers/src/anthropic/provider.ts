import type { MessageCreateParamsBase } from "@anthropic-ai/sdk/resources/messages";
import type { ModelProvider, ModelRequest, ProviderResponse, StreamEvent } from "@harnessx/core";
import { type ClientSettings, resolveConnection } from "../connection.js";
import { abortedError, badResponse } from "../errors.js";
import { isAsyncIterable } from "../shape.js";
import { loadAnthropic, type AnthropicClient, type AnthropicSdk, type AnthropicThinking } from "./client.js";
import { placeCacheControl } from "./cache-control.js";
import { anthropicError } from "./errors.js";
import { toAnthropicMessages, toAnthropicTools } from "./messages.js";
import { readMessage, toProviderResponse } from "./response.js";
import { MessageAccumulator } from "./stream.js";

/** Options of `AnthropicProvider`; every field is optional. */
export interface AnthropicProviderOptions {
  /** API key. Default: `ANTHROPIC_API_KEY`, else the SDK's own credentials (e.g. `ANTHROPIC_AUTH_TOKEN`). */
  apiKey?: string;
  /** Root of the Messages API. Default: `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`. */
  baseURL?: string;
  /** Model used when the agent names none. Default: `ANTHROPIC_MODEL`, else `"claude-sonnet-4-5"`. */
  model?: string;
  /** A ready client (`new Anthropic(...)`). `apiKey`, `baseURL` and `timeoutMs` are then ignored; its own retries are still turned off per request. */
  client?: AnthropicClient;
  /** Provider name in replies, hooks and traces. Default `"anthropic"`. */
  name?: string;
  /** Time limit of one HTTP request in the SDK. Default: the SDK's (10 minutes); the agent's `requestTimeoutMs` applies as well. */
  timeoutMs?: number;
  /**
   * Extended thinking, e.g. `{ type: "enabled", budget_tokens: 2048 }`. Default: not sent
   * (the model's default). While set, `temperature` is not sent (the API refuses both).
   */
  thinking?: AnthropicThinking;
}

/**
 * A `ModelProvider` on `@anthropic-ai/sdk` (Messages API): tool use, thinking
 * blocks kept and sent back unchanged, opaque blocks carried byte for byte.
 * The SDK never retries: the engine does, with `RETRY` events and Retry-After. The
 * `@anthropic-ai/sdk` package is an optional peer, loaded at the first request: without it, that
 * request fails with `MissingPackageError`.
 */
export class AnthropicProvider implements ModelProvider {
  /** Name in replies, hooks and traces: `options.name`, default "anthropic". */
  readonly name: string;
  readonly defaultModel: string;
  /** The history is converted into the request body when the call starts; nothing keeps it. */
  readonly borrowsRequests = true;
  private readonly thinking: AnthropicThinking | undefined;
  private readonly given: AnthropicClient | undefined;
  private readonly settings: ClientSettings;
  private loaded: Promise<AnthropicSdk> | undefined;

  constructor(options: AnthropicProviderOptions = {}) {
    this.name = options.name ?? "anthropic";
    this.thinking = options.thinking;
    this.given = options.client;
    if (options.client) {
      this.settings = { apiKey: undefined, baseURL: undefined, timeoutMs: undefined };
      this.defaultModel = options.model ?? process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-5";
      return;
    }
    const env = { apiKey: "ANTHROPIC_API_KEY", baseURL: "ANTHROPIC_BASE_URL", model: "ANTHROPIC_MODEL" };
    const connection = resolveConnection("AnthropicProvider", env, "claude-sonnet-4-5", options, false);
    this.defaultModel = connection.model;
    this.settings = { apiKey: connection.apiKey, baseURL: connection.baseURL, timeoutMs: options.timeoutMs };
  }

  /** The client making the requests (the one passed in `options.client`, if any), `@anthropic-ai/sdk` loaded on first call. */
  async client(): Promise<AnthropicClient> {
    return (await this.sdk()).client;
  }

  /**
   * Sends one request and waits for the whole reply. Rejects with a `ProviderError` whose `kind`
   * tells the engine whether to retry (kind `timeout` when a timeout signal fired), or with
   * `CancelledError` when `signal` was aborted otherwise.
   */
  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ProviderResponse> {
    const { client, errors } = await this.sdk();
    let reply: unknown;
    try {
      reply = await client.messages.create({ ...this.body(request), stream: false }, { signal, maxRetries: 0 });
    } catch (err) {
      throw anthropicError(err, this.name, signal, errors);
    }
    return toProviderResponse(readMessage(reply, this.name), this.name, this.model(request));
  }

  /**
   * Sends one request and yields text, reasoning and tool-call deltas as they arrive, then one
   * `response` event with the whole reply. Fails like `complete`, also when aborted part way.
   */
  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
    const { client, errors } = await this.sdk();
    const accumulator = new MessageAccumulator(this.name);
    try {
      const events = await client.messages.create({ ...this.body(request), stream: true }, { signal, maxRetries: 0 });
      if (!isAsyncIterable(events))
        throw badResponse(this.name, "the client's streamed reply is not an async iterable of events");
      for await (const event of events) yield* accumulator.add(event);
    } catch (err) {
      throw anthropicError(err, this.name, signal, errors);
    }
    // The SDK ends an aborted stream quietly; the caller must still learn it was cut.
    if (signal?.aborted) throw abortedError(signal, this.name);
    const { reply, toolInput } = accumulator.finish();
    yield { type: "response", response: toProviderResponse(reply, this.name, this.model(request), toolInput) };
  }

  private sdk(): Promise<AnthropicSdk> {
    this.loaded ??= loadAnthropic(this.given, this.settings);
    return this.loaded;
  }

  private model(request: ModelRequest): string {
    return request.model || this.defaultModel;
  }

  private body(request: ModelRequest): MessageCreateParamsBase {
    const turnOf: number[] = [];
    const messages = toAnthropicMessages(request.messages, turnOf);
    const tools = request.tools.length > 0 ? toAnthropicTools(request.tools) : undefined;
    // The canonical cache breakpoints become cache_control markers (prompt caching).
    const cached = placeCacheControl(
      { system: request.system || undefined, tools, messages },
      request.cacheBreakpoints,
      turnOf,
    );
    return {
      model: this.model(request),
      max_tokens: request.maxTokens,
      ...(cached.system ? { system: cached.system } : {}),
      messages: cached.messages,
      ...(cached.tools ? { tools: cached.tools } : {}),
      ...(this.thinking
        ? { thinking: this.thinking }
        : request.temperature !== undefined
          ? { temperature: request.temperature }
          : {}),
    };
  }
}
