import type { ContentBlock, Message, Usage } from "./content.js";

/** A tool as offered to a model: its name, description and JSON Schema. */
export interface ToolDefinition {
  /** The name the model calls the tool by. */
  name: string;
  /** What the tool does and when to use it, as the model reads it. */
  description: string;
  /** JSON Schema of the tool's input (an object schema). */
  inputSchema: Record<string, unknown>;
}

/**
 * Why the model stopped: `end_turn` (finished), `tool_use` (wants its tool calls run),
 * `max_tokens` (cut at the reply budget), `stop_sequence`, `refusal` (declined or filtered),
 * `pause_turn` (the provider paused a long turn; the engine calls again to continue).
 */
export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal" | "pause_turn";

/** Every {@link StopReason}, for validating a reply's `stopReason`. */
export const STOP_REASONS: readonly StopReason[] = [
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "refusal",
  "pause_turn",
];

/**
 * "Cache the request up to here": the end of the tool definitions, of the system prompt, or of
 * one message (`index` into `ModelRequest.messages`). A provider with explicit prompt caching
 * (Anthropic: `cache_control`) marks those places; one that caches by itself (OpenAI) or not at
 * all ignores them.
 */
export type CacheBreakpoint =
  | {
      /** After the last tool definition. */
      after: "tools";
    }
  | {
      /** After the system prompt. */
      after: "system";
    }
  | {
      /** After the message at `index`. */
      after: "message";
      /** Index of the message in `ModelRequest.messages`. */
      index: number;
    };

/** The canonical request every provider adapter translates to its own API. */
export interface ModelRequest {
  /** Model id to call: the agent's `model` setting (default: the provider's `defaultModel`). */
  model: string;
  /** The composed system prompt (operator text plus tool and extension sections); may be empty. */
  system: string;
  /** The conversation so far, oldest first; a provider must not change it. */
  messages: readonly Message[];
  /** Tools the model may call; empty on the final call, when the model must answer without tools. */
  tools: readonly ToolDefinition[];
  /** Reply budget in tokens: the agent's `maxTokens` (default 4096); recoveries may raise it (up to `maxReplyTokens`) or lower it to the provider's limit. */
  maxTokens: number;
  /** Sampling temperature; absent when the agent sets none (the provider's default applies). */
  temperature?: number;
  /** True when the engine calls `stream` rather than `complete` (a `runStream` run with a streaming provider). */
  stream: boolean;
  /** Where the provider may cache the request's prefix, placed by `placeCacheBreakpoints` middleware (e.g. `promptCacheExtension`); absent when none placed any. */
  cacheBreakpoints?: readonly CacheBreakpoint[];
}

/** The canonical reply every provider adapter translates from its own API. */
export interface ProviderResponse {
  /** The provider's id for this reply (e.g. `msg_...`); empty when the API gave none. */
  id: string;
  /** The model that answered, as the provider names it (it may differ from the one requested). */
  model: string;
  /** Name of the provider that answered (its `ModelProvider.name`). */
  provider: string;
  /** The reply's blocks (text, reasoning, tool calls, provider-owned data), in reply order. */
  content: ContentBlock[];
  /** Why the model stopped. */
  stopReason: StopReason;
  /** Tokens this call used. */
  usage: Usage;
}

/**
 * What a streaming provider yields: deltas as they arrive, then exactly one
 * `response` event with the whole canonical reply.
 */
export type StreamEvent =
  | {
      /** A piece of answer text. */
      type: "text_delta";
      /** The new text, to append to what came before. */
      text: string;
    }
  | {
      /** A piece of reasoning text. */
      type: "reasoning_delta";
      /** The new reasoning text, to append to what came before. */
      text: string;
    }
  | {
      /** A piece of a tool call's argument text. */
      type: "tool_call_delta";
      /** The tool call's id, the same on every delta of that call. */
      id: string;
      /** Name of the tool being called. */
      name: string;
      /** The new argument text (raw JSON, possibly partial); may be empty. */
      argumentsDelta: string;
    }
  | {
      /** The end of the stream: the whole reply. */
      type: "response";
      /** The complete canonical reply; the engine uses this, not the deltas. */
      response: ProviderResponse;
    };

/** A model API. `complete` is required; `stream` is used by `runStream` when present. */
export interface ModelProvider {
  /** Name in errors, events and traces (`gen_ai.provider.name`), e.g. `anthropic`. */
  readonly name: string;
  /** Model used when the agent names none. */
  readonly defaultModel?: string;
  /**
   * True when the provider reads a request only while its call runs and keeps no reference to
   * `request.messages` afterwards. The engine then hands it the live history instead of a copy
   * (the history does not change during a call), saving a copy of the whole history per call.
   * Left unset, every request carries its own copy.
   */
  readonly borrowsRequests?: boolean;
  /**
   * Sends one request and resolves with the whole reply. Reject with a `ProviderError` so the
   * engine can tell retryable failures apart (anything else is treated as `bad_response`).
   * @param signal - Aborts on cancellation or when the agent's `requestTimeoutMs` passes.
   */
  complete(request: ModelRequest, signal?: AbortSignal): Promise<ProviderResponse>;
  /**
   * Like `complete`, but yields deltas as they arrive and ends with exactly one `response` event;
   * a stream that ends without one fails the call.
   */
  stream?(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent>;
}
