import type { ModelProvider, ModelRequest, ProviderResponse, StreamEvent } from "@harnessx/core";
import type { ChatCompletionCreateParamsBase } from "openai/resources/chat/completions/completions";
import { type ClientSettings, resolveConnection } from "../connection.js";
import { abortedError, badResponse } from "../errors.js";
import { isAsyncIterable } from "../shape.js";
import { loadOpenAI, type OpenAIClient, type OpenAISdk } from "./client.js";
import { openAIError } from "./errors.js";
import { toChatMessages, toChatTools } from "./messages.js";
import { readCompletion, toProviderResponse } from "./response.js";
import { ChunkAccumulator } from "./stream.js";

/** Options of `OpenAIProvider`; every field is optional. */
export interface OpenAIProviderOptions {
  /** API key. Default: `OPENAI_API_KEY`; a placeholder when only a server is named (local servers need none). */
  apiKey?: string;
  /**
   * Root of any OpenAI-compatible server, e.g. `http://127.0.0.1:8080/v1` (llama.cpp),
   * `http://127.0.0.1:8000/v1` (vLLM), `http://127.0.0.1:11434/v1` (Ollama).
   * Default: `OPENAI_BASE_URL`, else the OpenAI API.
   */
  baseURL?: string;
  /** Model used when the agent names none. Default: `OPENAI_MODEL`, else `"gpt-4o-mini"`. */
  model?: string;
  /** A ready client (`new OpenAI(...)`). `apiKey`, `baseURL` and `timeoutMs` are then ignored; its own retries are still turned off per request. */
  client?: OpenAIClient;
  /** Provider name in replies, hooks and traces. Default `"openai"`. */
  name?: string;
  /** Time limit of one HTTP request in the SDK. Default: the SDK's (10 minutes); the agent's `requestTimeoutMs` applies as well. */
  timeoutMs?: number;
  /**
   * Request field for the reply budget. Default `"max_completion_tokens"` on the
   * OpenAI API (its reasoning models refuse `max_tokens`), `"max_tokens"` on any
   * other server, which all understand it.
   */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

/**
 * A `ModelProvider` on the official `openai` SDK (Chat Completions), for the
 * OpenAI API or any compatible server. The SDK never retries: the engine does,
 * with `RETRY` events and the server's Retry-After. The `openai` package is an optional peer,
 * loaded at the first request: without it, that request fails with `MissingPackageError`.
 */
export class OpenAIProvider implements ModelProvider {
  /** Name in replies, hooks and traces: `options.name`, default "openai". */
  readonly name: string;
  readonly defaultModel: string;
  /** The history is converted into the request body when the call starts; nothing keeps it. */
  readonly borrowsRequests = true;
  private readonly maxTokensField: "max_tokens" | "max_completion_tokens";
  private readonly given: OpenAIClient | undefined;
  private readonly settings: ClientSettings;
  private loaded: Promise<OpenAISdk> | undefined;

  constructor(options: OpenAIProviderOptions = {}) {
    this.name = options.name ?? "openai";
    this.given = options.client;
    if (options.client) {
      this.settings = { apiKey: undefined, baseURL: options.client.baseURL, timeoutMs: undefined };
      this.defaultModel = options.model ?? process.env.OPENAI_MODEL ?? "gpt-4o-mini";
    } else {
      const connection = resolveConnection(
        "OpenAIProvider",
        { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL", model: "OPENAI_MODEL" },
        "gpt-4o-mini",
        options,
        true,
      );
      this.defaultModel = connection.model;
      this.settings = { apiKey: connection.apiKey, baseURL: connection.baseURL, timeoutMs: options.timeoutMs };
    }
    // No server named: the SDK's default, the OpenAI API.
    this.maxTokensField =
      options.maxTokensField ??
      (this.settings.baseURL === undefined || isOpenAIHost(this.settings.baseURL)
        ? "max_completion_tokens"
        : "max_tokens");
  }

  /** The client making the requests (the one passed in `options.client`, if any), the `openai` package loaded on first call. */
  async client(): Promise<OpenAIClient> {
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
      reply = await client.chat.completions.create({ ...this.body(request), stream: false }, { signal, maxRetries: 0 });
    } catch (err) {
      throw openAIError(err, this.name, signal, errors);
    }
    return toProviderResponse(readCompletion(reply, this.name), this.name, this.model(request));
  }

  /**
   * Sends one request and yields text, reasoning and tool-call deltas as they arrive, then one
   * `response` event with the whole reply. Fails like `complete`, also when aborted part way.
   */
  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
    const { client, errors } = await this.sdk();
    const accumulator = new ChunkAccumulator(this.name);
    try {
      const chunks = await client.chat.completions.create(
        { ...this.body(request), stream: true, stream_options: { include_usage: true } },
        { signal, maxRetries: 0 },
      );
      if (!isAsyncIterable(chunks))
        throw badResponse(this.name, "the client's streamed reply is not an async iterable of chunks");
      for await (const chunk of chunks) yield* accumulator.add(chunk);
    } catch (err) {
      throw openAIError(err, this.name, signal, errors);
    }
    // The SDK ends an aborted stream quietly; the caller must still learn it was cut.
    if (signal?.aborted) throw abortedError(signal, this.name);
    yield { type: "response", response: toProviderResponse(accumulator.finish(), this.name, this.model(request)) };
  }

  private sdk(): Promise<OpenAISdk> {
    this.loaded ??= loadOpenAI(this.given, this.settings);
    return this.loaded;
  }

  private model(request: ModelRequest): string {
    return request.model || this.defaultModel;
  }

  private body(request: ModelRequest): ChatCompletionCreateParamsBase {
    return {
      model: this.model(request),
      messages: toChatMessages(request.system, request.messages),
      ...(request.tools.length > 0 ? { tools: toChatTools(request.tools) } : {}),
      [this.maxTokensField]: request.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
  }
}

function isOpenAIHost(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname;
    return host === "api.openai.com" || host.endsWith(".openai.com");
  } catch {
    return false;
  }
}
