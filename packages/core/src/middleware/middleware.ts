import type { Message, ToolCall, ToolResult } from "../types/content.js";
import type { CacheBreakpoint, ModelRequest, ProviderResponse, ToolDefinition } from "../types/provider.js";

/** Why the history is being compacted: over the context budget, or refused by the provider as too long. */
export type CompactReason = "budget" | "overflow";

/** What `beforeCompact` is asked: the history, the part about to be dropped, and why. */
export interface CompactRequest {
  /** The whole model history as it is now. */
  readonly messages: readonly Message[];
  /** The messages compaction drops (the first user message and the recent part are kept). */
  readonly dropping: readonly Message[];
  /** Why compaction runs now. */
  readonly reason: CompactReason;
  /** The agent's `contextBudgetTokens`: the estimated tokens the history should fit in. */
  readonly budgetTokens: number;
}

/** A summary that replaces the dropped history. */
export interface CompactAnswer {
  /** The summary, added under a header line to the first user message in place of the dropped part; a blank one counts as no answer. */
  summary: string;
}

/**
 * Transformations around model and tool calls. Override the stages you need;
 * the base stages return their input unchanged. Plain objects with some of
 * these methods work too.
 */
export interface MiddlewareLike {
  /** Shown in errors; defaults to the class name. */
  readonly name?: string;
  /**
   * Before each model call: returns the history and tools to send instead. Whole messages may be
   * dropped; provider-owned blocks (signed reasoning, provider blocks) must stay unchanged and in order.
   */
  beforeLlmCall?(
    messages: readonly Message[],
    tools: readonly ToolDefinition[],
  ): Promise<[readonly Message[], readonly ToolDefinition[]]>;
  /**
   * Before each model call, once the request is whole: returns where the provider may cache its
   * prefix (`ModelRequest.cacheBreakpoints`). Each middleware gets the request with the previous
   * one's answer and replaces it; a message index must name one of the request's messages.
   */
  placeCacheBreakpoints?(request: Readonly<ModelRequest>): Promise<readonly CacheBreakpoint[]>;
  /** After each model call: returns the response to use instead; its provider-owned blocks must stay unchanged. */
  afterLlmCall?(response: ProviderResponse): Promise<ProviderResponse>;
  /** Must return a call with the same `id`. */
  beforeToolExecution?(call: ToolCall): Promise<ToolCall>;
  /** Must return a result with the same `toolCallId`. */
  afterToolExecution?(result: ToolResult): Promise<ToolResult>;
  /**
   * Runs around a tool handler (its retries and timeout included), e.g. to make a
   * tracing span or an AsyncLocalStorage value active for the handler's own work.
   * Must call `execute` once and return what it returns. A then B: A is outermost.
   */
  wrapToolExecution?<T>(call: ToolCall, execute: () => Promise<T>): Promise<T>;
  /** Runs around one model call (its retries included), like `wrapToolExecution`. */
  wrapModelCall?<T>(request: ModelRequest, send: () => Promise<T>): Promise<T>;
  /**
   * Before the history is compacted: return `{ summary }` to replace the dropped messages with
   * it, or nothing to pass. The first middleware that answers (install order) supplies it; a
   * throw fails the run (it rewrites what the model will know).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a callback with a block body and no return infers void; the union lets it type-check
  beforeCompact?(request: CompactRequest): Promise<CompactAnswer | undefined | void>;
}

export class Middleware implements MiddlewareLike {
  get name(): string {
    return this.constructor.name;
  }
  async beforeLlmCall(
    messages: readonly Message[],
    tools: readonly ToolDefinition[],
  ): Promise<[readonly Message[], readonly ToolDefinition[]]> {
    return [messages, tools];
  }
  async placeCacheBreakpoints(request: Readonly<ModelRequest>): Promise<readonly CacheBreakpoint[]> {
    return request.cacheBreakpoints ?? [];
  }
  async afterLlmCall(response: ProviderResponse): Promise<ProviderResponse> {
    return response;
  }
  async beforeToolExecution(call: ToolCall): Promise<ToolCall> {
    return call;
  }
  async afterToolExecution(result: ToolResult): Promise<ToolResult> {
    return result;
  }
  async wrapToolExecution<T>(_call: ToolCall, execute: () => Promise<T>): Promise<T> {
    return execute();
  }
  async wrapModelCall<T>(_request: ModelRequest, send: () => Promise<T>): Promise<T> {
    return send();
  }
  async beforeCompact(_request: CompactRequest): Promise<CompactAnswer | undefined> {
    return undefined;
  }
}

/** The name of one middleware method: what `MiddlewarePipeline.has` takes and a `MiddlewareError` reports. */
export type MiddlewareStage =
  | "beforeLlmCall"
  | "placeCacheBreakpoints"
  | "afterLlmCall"
  | "beforeToolExecution"
  | "afterToolExecution"
  | "wrapToolExecution"
  | "wrapModelCall"
  | "beforeCompact";

/** True when `mw` really implements `stage` (not the base class's pass-through). */
export function implementsStage(mw: MiddlewareLike, stage: MiddlewareStage): boolean {
  const fn = mw[stage];
  return typeof fn === "function" && fn !== Middleware.prototype[stage];
}

export function middlewareName(mw: MiddlewareLike): string {
  return mw.name || mw.constructor?.name || "anonymous middleware";
}
