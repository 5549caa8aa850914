import { MiddlewareError, toError } from "../errors.js";
import { registration, type Registration } from "../registration.js";
import type { Message, ToolCall, ToolResult } from "../types/content.js";
import type { CacheBreakpoint, ModelRequest, ProviderResponse, ToolDefinition } from "../types/provider.js";
import { cacheBreakpointsProblem, plainBreakpoint } from "./cache-breakpoints.js";
import {
  implementsStage,
  middlewareName,
  type CompactRequest,
  type MiddlewareLike,
  type MiddlewareStage,
} from "./middleware.js";
import { historyProviderOwnedChange, providerOwnedChange } from "./provider-owned.js";
import { jsonProblem } from "../session/json-check.js";
import { deepFreeze } from "../util/deep-freeze.js";

/**
 * Middleware in the order added: every stage runs A then B, B receiving A's
 * output (no unwinding). A stage that throws or breaks an identity rule fails
 * the run with a MiddlewareError naming the middleware.
 */
export class MiddlewarePipeline {
  private entries: MiddlewareLike[] = [];
  private byStage = new Map<MiddlewareStage, MiddlewareLike[]>();
  private readonly owners = new WeakMap<MiddlewareLike, string>();

  /** Adds a middleware; `owner` is the extension that registered it, named in its errors. */
  add(middleware: MiddlewareLike, owner?: string): Registration {
    if (typeof middleware !== "object" || middleware === null) throw new TypeError("middleware must be an object");
    this.entries = [...this.entries, middleware];
    if (owner) this.owners.set(middleware, owner);
    this.byStage.clear();
    return registration(() => {
      this.entries = this.entries.filter((m) => m !== middleware);
      this.byStage.clear();
    });
  }

  /** How many middleware are installed. */
  get size(): number {
    return this.entries.length;
  }

  /** The installed middleware in the order added (a snapshot: later changes make a new array). */
  list(): readonly MiddlewareLike[] {
    return this.entries;
  }

  /** True when some middleware transforms responses, so streamed deltas must wait for it. */
  transformsResponses(): boolean {
    return this.stage("afterLlmCall").length > 0;
  }

  /** True when some middleware implements `stage`: callers skip the stage (and its promise) otherwise. */
  has(stage: MiddlewareStage): boolean {
    return this.stage(stage).length > 0;
  }

  private stage(stage: MiddlewareStage): MiddlewareLike[] {
    let list = this.byStage.get(stage);
    if (!list) {
      list = this.entries.filter((m) => implementsStage(m, stage));
      this.byStage.set(stage, list);
    }
    return list;
  }

  /**
   * Passes the history and tools through every `beforeLlmCall`, in order; throws a `MiddlewareError`
   * on a bad return. `rewrittenBy` collects who returned another history (extension, else middleware name).
   */
  async beforeLlmCall(
    messages: readonly Message[],
    tools: readonly ToolDefinition[],
    rewrittenBy?: string[],
  ): Promise<[readonly Message[], readonly ToolDefinition[]]> {
    let current: [readonly Message[], readonly ToolDefinition[]] = [messages, tools];
    for (const mw of this.stage("beforeLlmCall")) {
      const before = current;
      const out = await this.run(mw, "beforeLlmCall", () => mw.beforeLlmCall!(before[0], before[1]));
      if (!Array.isArray(out) || !Array.isArray(out[0]) || !Array.isArray(out[1])) {
        throw this.failure(mw, "beforeLlmCall", "must return [messages, tools]");
      }
      if (out[0] !== before[0]) {
        const change = historyProviderOwnedChange(before[0], out[0]);
        if (change) throw this.failure(mw, "beforeLlmCall", change);
        rewrittenBy?.push(this.owners.get(mw) ?? middlewareName(mw));
      }
      // The next middleware cannot change this one's history in place, unattributed.
      current = [Object.freeze(out[0]), Object.freeze(out[1])];
    }
    return current;
  }

  /** The cache breakpoints every `placeCacheBreakpoints` leaves on `request`, in order; throws a `MiddlewareError` on a bad return. */
  async placeCacheBreakpoints(request: ModelRequest): Promise<readonly CacheBreakpoint[]> {
    let current = request.cacheBreakpoints ?? [];
    for (const mw of this.stage("placeCacheBreakpoints")) {
      const asked = { ...request, cacheBreakpoints: current };
      const out = await this.run(mw, "placeCacheBreakpoints", () => mw.placeCacheBreakpoints!(asked));
      const problem = cacheBreakpointsProblem(out, request.messages.length);
      if (problem) throw this.failure(mw, "placeCacheBreakpoints", problem);
      current = out.map(plainBreakpoint);
    }
    return current;
  }

  /** Passes a model response through every `afterLlmCall`, in order; throws a `MiddlewareError` on a bad return. */
  async afterLlmCall(response: ProviderResponse): Promise<ProviderResponse> {
    let current = response;
    for (const mw of this.stage("afterLlmCall")) {
      const before = current;
      const out = await this.run(mw, "afterLlmCall", () => mw.afterLlmCall!(before));
      if (!out || typeof out !== "object" || !Array.isArray(out.content)) {
        throw this.failure(mw, "afterLlmCall", "must return a response with a content array");
      }
      const change = providerOwnedChange(before, out);
      if (change) throw this.failure(mw, "afterLlmCall", change);
      current = out;
    }
    return current;
  }

  /**
   * Passes a tool call through every `beforeToolExecution`, in order; throws a `MiddlewareError` if
   * one changes the id. `rewrittenBy` collects who changed the name or the input (extension, else
   * middleware name): the one stage where a call may change, so the change is always attributed.
   */
  async beforeToolExecution(call: ToolCall, rewrittenBy?: string[]): Promise<ToolCall> {
    // Frozen at each step: a call changed in place could not be attributed.
    let current = deepFreeze(call);
    for (const mw of this.stage("beforeToolExecution")) {
      const before = current;
      const out = await this.run(mw, "beforeToolExecution", () => mw.beforeToolExecution!(before));
      if (!out || typeof out !== "object") throw this.failure(mw, "beforeToolExecution", "must return a tool call");
      if (out.id !== before.id) {
        throw this.failure(
          mw,
          "beforeToolExecution",
          `changed the call id from "${before.id}" to "${String(out.id)}"; keep call.id`,
        );
      }
      if (out !== before) {
        const problem = out.input === before.input ? undefined : jsonProblem(out.input, "input");
        if (problem)
          throw this.failure(
            mw,
            "beforeToolExecution",
            `returned input that is not JSON data at ${problem.path}: ${problem.why}; a tool's input must be what a model could send`,
          );
        if (callChanged(before, out)) rewrittenBy?.push(this.owners.get(mw) ?? middlewareName(mw));
      }
      current = deepFreeze(out);
    }
    return current;
  }

  /** Passes a tool result through every `afterToolExecution`, in order; throws a `MiddlewareError` if one changes `toolCallId` or returns non-string content. */
  async afterToolExecution(result: ToolResult): Promise<ToolResult> {
    let current = result;
    for (const mw of this.stage("afterToolExecution")) {
      const before = current;
      const out = await this.run(mw, "afterToolExecution", () => mw.afterToolExecution!(before));
      if (!out || typeof out !== "object") throw this.failure(mw, "afterToolExecution", "must return a tool result");
      if (out.toolCallId !== before.toolCallId) {
        throw this.failure(
          mw,
          "afterToolExecution",
          `changed toolCallId from "${before.toolCallId}" to "${String(out.toolCallId)}"; keep result identity`,
        );
      }
      if (typeof out.content !== "string")
        throw this.failure(mw, "afterToolExecution", "result content must be a string");
      current = out;
    }
    return current;
  }

  /** The first summary a `beforeCompact` answers, with who answered (its extension, else the middleware's name). */
  async beforeCompact(request: CompactRequest): Promise<
    | {
        /** The summary text (never blank). */
        summary: string;
        /** Who supplied it: the owning extension's name, else the middleware's name. */
        by: string;
      }
    | undefined
  > {
    for (const mw of this.stage("beforeCompact")) {
      const out: unknown = await this.run(mw, "beforeCompact", () => mw.beforeCompact!(request));
      if (out === undefined || out === null) continue;
      const summary = (out as { summary?: unknown }).summary;
      if (typeof out !== "object" || typeof summary !== "string")
        throw this.failure(mw, "beforeCompact", "must return { summary: string } or nothing");
      if (summary.trim() === "") continue;
      return { summary, by: this.owners.get(mw) ?? middlewareName(mw) };
    }
    return undefined;
  }

  /** Runs `execute` inside every `wrapToolExecution`, the first added outermost. */
  wrapToolExecution<T>(call: ToolCall, execute: () => Promise<T>): Promise<T> {
    return this.wrap("wrapToolExecution", execute, (mw, inner) => mw.wrapToolExecution!(call, inner));
  }

  /** Runs `send` inside every `wrapModelCall`, the first added outermost. */
  wrapModelCall<T>(request: ModelRequest, send: () => Promise<T>): Promise<T> {
    return this.wrap("wrapModelCall", send, (mw, inner) => mw.wrapModelCall!(request, inner));
  }

  private wrap<T>(
    stage: "wrapToolExecution" | "wrapModelCall",
    work: () => Promise<T>,
    apply: (mw: MiddlewareLike, inner: () => Promise<T>) => Promise<T>,
  ): Promise<T> {
    const wrappers = this.stage(stage);
    if (wrappers.length === 0) return work();
    // Errors of the wrapped work pass through untouched; anything else a wrapper throws is its own failure.
    const passing = new WeakSet<object>();
    let next = () =>
      work().catch((err: unknown) => {
        if (err && typeof err === "object") passing.add(err);
        throw err;
      });
    for (let i = wrappers.length - 1; i >= 0; i--) {
      const mw = wrappers[i];
      const inner = next;
      let called = false;
      next = async () => {
        const guarded = () => {
          if (called) throw this.failure(mw, stage, "called the wrapped work more than once");
          called = true;
          return inner();
        };
        try {
          return await apply(mw, guarded);
        } catch (err) {
          if (err instanceof MiddlewareError || (err && typeof err === "object" && passing.has(err))) throw err;
          throw this.failure(mw, stage, toError(err).message, err);
        }
      };
    }
    return next();
  }

  private failure(mw: MiddlewareLike, stage: MiddlewareStage, message: string, cause?: unknown): MiddlewareError {
    const extension = this.owners.get(mw);
    return new MiddlewareError(middlewareName(mw), stage, message, {
      ...(cause !== undefined ? { cause } : {}),
      ...(extension ? { extension } : {}),
    });
  }

  private async run<T>(mw: MiddlewareLike, stage: MiddlewareStage, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof MiddlewareError) throw err;
      const error = toError(err);
      throw this.failure(mw, stage, error.message, error);
    }
  }
}

/** True when a middleware's call runs another tool or with other input than the one it was given. */
function callChanged(before: ToolCall, after: ToolCall): boolean {
  if (after.name !== before.name) return true;
  if (after.input === before.input) return false;
  try {
    return JSON.stringify(after.input) !== JSON.stringify(before.input);
  } catch {
    return true;
  }
}
