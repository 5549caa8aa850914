import { ProviderError, providerErrorKindForStatus, type ProviderErrorKind } from "../errors.js";
import type { ContentBlock, Usage } from "../types/content.js";
import type { ModelProvider, ModelRequest, ProviderResponse, StopReason, StreamEvent } from "../types/provider.js";
import { sleep } from "../util/abort.js";

/** A tool call a scripted reply makes. */
export interface ScriptedToolCall {
  /** The call's id; default `call_<step>_<n>` (both counted from 1). */
  id?: string;
  /** Name of the tool to call. */
  name: string;
  /** The arguments; default `{}`. Ignored when `rawInput` is set. */
  input?: Record<string, unknown>;
  /** The model's unparsed argument text, to script malformed JSON. */
  rawInput?: string;
}

/** A failure a step answers with: the call rejects with a `ProviderError`. */
export interface ScriptedError {
  /** HTTP status to simulate; unless `kind` is set it decides the kind (429 rate limit, 5xx server, none a connection failure). */
  status?: number;
  /** The error's message; default `scripted error <status>`. */
  message?: string;
  /** Seconds, as in the HTTP header. */
  retryAfter?: number;
  /** Overrides the kind derived from `status` (e.g. `context_overflow`). */
  kind?: ProviderErrorKind;
  /** For `reply_limit`: the budget the provider accepts. */
  limit?: number;
}

/** One scripted model reply, or (with `error`) a failed call. */
export interface ScriptedReply {
  /** The reply's text; none when absent or empty. */
  text?: string;
  /** Tool calls the reply makes, after its text. */
  toolCalls?: ScriptedToolCall[];
  /** A reasoning block put first: its text, or its text and signature (a signed block is provider-owned). */
  reasoning?:
    | string
    | {
        /** The reasoning text. */
        text: string;
        /** The provider's signature; makes the block provider-owned. */
        signature?: string;
      };
  /** Opaque provider blocks, sent back unchanged. */
  providerBlocks?: Array<{
    /** The vendor the block belongs to. */
    provider: string;
    /** The block's raw data. */
    data: unknown;
  }>;
  /** Why the model stopped; default `tool_use` when there are tool calls, else `end_turn`. */
  stopReason?: StopReason;
  /** Token counts to report; input and output counts left out are estimated at about 4 characters a token. */
  usage?: Partial<Usage>;
  /** Wait before answering, in ms (cancellable through the call's signal). */
  delayMs?: number;
  /** Fail the call with this error instead of replying (after `delayMs`). */
  error?: ScriptedError;
}

/** One step of a script: a fixed reply, or a function that builds it from the request and the step's index (from 0). */
export type ScriptStep = ScriptedReply | ((request: ModelRequest, index: number) => ScriptedReply);

/** Settings of a `ScriptedProvider`. */
export interface ScriptedProviderOptions {
  /** Its `defaultModel`; default `scripted-model`. */
  model?: string;
  /** Its provider name; default `scripted`. */
  name?: string;
  /** Characters per streamed text delta. Default 16. */
  chunkChars?: number;
  /**
   * Keep every request in `requests` (for assertions). Default false: each request holds
   * its own copy of the message array, so a long run that kept them all would use memory
   * quadratic in its length.
   */
  recordRequests?: boolean;
  /**
   * Which step answers a request. `call` (default): the next one, call after call. `conversation`:
   * step N answers a request holding N assistant messages, so the reply depends only on where the
   * conversation stands: a new process resuming a durable run gets the step its run is at, and a
   * retried call gets its step again.
   */
  stepBy?: "call" | "conversation";
}

/**
 * A deterministic model: answers step after step of a script. For tests, the
 * demo and replay. Running past the last step is an error naming the step count.
 */
export class ScriptedProvider implements ModelProvider {
  /** The provider name from the options; default `scripted`. */
  readonly name: string;
  readonly defaultModel: string;
  private readonly steps: readonly ScriptStep[];
  private readonly chunkChars: number;
  private readonly recordRequests: boolean;
  private readonly byConversation: boolean;
  /** A recording provider keeps requests, so it must get copies; a step function sees the request only during its call. */
  readonly borrowsRequests: boolean;
  private index = 0;
  private readonly recorded: ModelRequest[] = [];

  constructor(steps: readonly ScriptStep[], options: ScriptedProviderOptions = {}) {
    this.steps = steps;
    this.name = options.name ?? "scripted";
    this.defaultModel = options.model ?? "scripted-model";
    this.chunkChars = options.chunkChars ?? 16;
    this.recordRequests = options.recordRequests ?? false;
    this.byConversation = options.stepBy === "conversation";
    this.borrowsRequests = !this.recordRequests;
  }

  /**
   * Every request received, in order; only with `recordRequests: true`. Reading it otherwise
   * throws rather than answering with an empty list an assertion could wrongly pass on.
   */
  get requests(): readonly ModelRequest[] {
    if (!this.recordRequests)
      throw new Error("ScriptedProvider keeps its requests only when built with { recordRequests: true }");
    return this.recorded;
  }

  /** How many steps have been answered. */
  get position(): number {
    return this.index;
  }

  /** Answers with the next step (or the conversation's, with `stepBy: "conversation"`); past the last one it rejects with a `script_exhausted` `ProviderError`. */
  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ProviderResponse> {
    const called = this.index++;
    const index = this.byConversation ? request.messages.filter((m) => m.role === "assistant").length : called;
    if (this.recordRequests) this.recorded.push(request);
    if (index >= this.steps.length) {
      throw new ProviderError(
        "script_exhausted",
        `ScriptedProvider has ${this.steps.length} steps; request ${index + 1} has none`,
      );
    }
    const step = this.steps[index];
    const reply = typeof step === "function" ? step(request, index) : step;
    if (reply.delayMs) await sleep(reply.delayMs, signal);
    if (reply.error) {
      const e = reply.error;
      throw new ProviderError(
        e.kind ?? providerErrorKindForStatus(e.status),
        e.message ?? `scripted error ${e.status ?? ""}`.trim(),
        {
          status: e.status,
          retryAfterMs: e.retryAfter !== undefined ? e.retryAfter * 1000 : undefined,
          limit: e.limit,
        },
      );
    }
    return this.toResponse(reply, request, index);
  }

  /** Answers the next step as a stream: reasoning, text in `chunkChars` pieces, one delta per tool call, then the response. */
  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
    const response = await this.complete(request, signal);
    for (const block of response.content) {
      if (block.type === "reasoning") yield { type: "reasoning_delta", text: block.text };
      if (block.type === "text") {
        for (let i = 0; i < block.text.length; i += this.chunkChars) {
          yield { type: "text_delta", text: block.text.slice(i, i + this.chunkChars) };
        }
      }
      if (block.type === "tool_call") {
        yield {
          type: "tool_call_delta",
          id: block.id,
          name: block.name,
          argumentsDelta: block.rawInput ?? JSON.stringify(block.input),
        };
      }
    }
    yield { type: "response", response };
  }

  private toResponse(reply: ScriptedReply, request: ModelRequest, index: number): ProviderResponse {
    const content: ContentBlock[] = [];
    if (reply.reasoning !== undefined) {
      const r = typeof reply.reasoning === "string" ? { text: reply.reasoning } : reply.reasoning;
      content.push({ type: "reasoning", ...r });
    }
    for (const p of reply.providerBlocks ?? []) content.push({ type: "provider", provider: p.provider, data: p.data });
    if (reply.text) content.push({ type: "text", text: reply.text });
    (reply.toolCalls ?? []).forEach((call, i) => {
      const id = call.id ?? `call_${index + 1}_${i + 1}`;
      if (call.rawInput === undefined) {
        content.push({ type: "tool_call", id, name: call.name, input: call.input ?? {} });
        return;
      }
      content.push({ type: "tool_call", id, name: call.name, ...parseArguments(call.rawInput) });
    });
    const stopReason = reply.stopReason ?? (reply.toolCalls?.length ? "tool_use" : "end_turn");
    const outputChars = (reply.text?.length ?? 0) + JSON.stringify(reply.toolCalls ?? []).length;
    const usage: Usage = {
      inputTokens: reply.usage?.inputTokens ?? Math.ceil((request.system.length + request.messages.length * 40) / 4),
      outputTokens: reply.usage?.outputTokens ?? Math.ceil(outputChars / 4),
      ...(reply.usage?.cacheReadTokens !== undefined ? { cacheReadTokens: reply.usage.cacheReadTokens } : {}),
      ...(reply.usage?.cacheWriteTokens !== undefined ? { cacheWriteTokens: reply.usage.cacheWriteTokens } : {}),
    };
    return { id: `scripted-${index + 1}`, model: request.model, provider: this.name, content, stopReason, usage };
  }
}

/** Reads a model's argument text the way provider adapters do: a JSON object, or a parse error. */
export function parseArguments(raw: string): {
  /** The parsed object; `{}` for empty or unreadable text. */
  input: Record<string, unknown>;
  /** The text as given; set only with `parseError`. */
  rawInput?: string;
  /** Why the text is not a JSON object; absent when it parsed (or was empty). */
  parseError?: string;
} {
  if (raw.trim() === "") return { input: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === "object" && !Array.isArray(value)) return { input: value as Record<string, unknown> };
    return { input: {}, rawInput: raw, parseError: "the arguments are not a JSON object" };
  } catch (err) {
    return { input: {}, rawInput: raw, parseError: `the arguments are not valid JSON (${(err as Error).message})` };
  }
}
