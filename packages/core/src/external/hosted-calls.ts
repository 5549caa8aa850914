import type { CallCost } from "../cost/call-cost.js";
import { ProviderError, toError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import type { HookPayloads, LlmRequestData, ToolOutcome } from "../hooks/payloads.js";
import type { PermissionDecision } from "../permissions/decision.js";
import { prefixKey } from "../prompt/system-prompt.js";
import type { SpanContext } from "../spans/span-context.js";
import type { ToolCall, ToolResult, Usage } from "../types/content.js";
import type { ModelRequest, ProviderResponse } from "../types/provider.js";

/** What a call needs of its run (built by the run; adapters never see it). */
export interface HostedRunParts {
  /** Fires `event` from inside `span`, stamped `at`. */
  emit<E extends HookEvent>(span: SpanContext, event: E, data: HookPayloads[E], at?: number): Promise<void>;
  /** The agent's provider name, for replies that name none. */
  readonly providerName: string;
  /** Prices a reply's usage with the agent's pricer (the one pricing rule) and adds both to the run's totals. */
  price(usage: Usage, model: string, provider: string): Promise<CallCost>;
}

/** One model call of a hosted run, between its `LLM_REQUEST` and its `LLM_RESPONSE` (or failure). */
export class HostedModelCall {
  private done = false;

  /** @internal Made by `HostedRun.startModelCall`. */
  constructor(
    private readonly run: HostedRunParts,
    /** The call's span (role `chat`), under the run's. */
    readonly span: SpanContext,
    private readonly request: ModelRequest,
    private readonly startedAt: number,
  ) {}

  /** The `LLM_REQUEST` payload of a request as the framework sent it. */
  static requestData(request: ModelRequest): LlmRequestData {
    return {
      system: request.system,
      model: request.model,
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      stream: request.stream,
      messageCount: request.messages.length,
      toolCount: request.tools.length,
      prefixKey: prefixKey(request.system, request.tools),
      request,
    };
  }

  /**
   * Reports the reply (`LLM_RESPONSE`): priced by the agent's pricer (the one pricing rule) and
   * counted into the run's usage. Returns what it cost. A second end or a failure after it is ignored.
   */
  async end(reply: { response: ProviderResponse; at?: number }): Promise<CallCost | undefined> {
    if (this.done) return undefined;
    this.done = true;
    const { response } = reply;
    const at = reply.at ?? Date.now();
    const model = response.model || this.request.model;
    const provider = response.provider || this.run.providerName;
    const cost = await this.run.price(response.usage, model, provider);
    const data = {
      response,
      provider,
      model,
      usage: response.usage,
      cost,
      stopReason: response.stopReason,
      durationMs: Math.max(0, at - this.startedAt),
    };
    await this.run.emit(this.span, HookEvent.LLM_RESPONSE, data, at);
    return cost;
  }

  /** Reports that the call failed (`ERROR`, source `provider`, on the call's span): the span ends failed. */
  async fail(error: unknown, at?: number): Promise<void> {
    if (this.done) return;
    this.done = true;
    const cause = toError(error);
    const failure =
      cause instanceof ProviderError ? cause : new ProviderError("bad_response", cause.message, { cause });
    await this.run.emit(this.span, HookEvent.ERROR, { source: "provider", error: failure }, at);
  }
}

/** How a hosted tool call ended. */
export interface HostedToolEnd {
  /** The result text the model reads (or the error message when `isError`). */
  content: string;
  /** True when the call failed. */
  isError?: boolean;
  /** The result as the tool returned it, before the framework made it text. */
  rawResult?: unknown;
  /** How it ended; default `failed` when `isError`, else `executed`. */
  outcome?: ToolOutcome;
  /** When it ended, ms since the epoch; default now. */
  at?: number;
}

/** One tool call of a hosted run, between its `TOOL_CALL_START` and `TOOL_CALL_END`. */
export class HostedToolCall {
  private done = false;

  /** @internal Made by `HostedRun.startToolCall`. */
  constructor(
    private readonly run: HostedRunParts,
    /** The call's span (role `tool`), under the run's. */
    readonly span: SpanContext,
    /** The call as reported at its start. */
    readonly toolCall: ToolCall,
    private readonly permission: PermissionDecision,
    private readonly startedAt: number,
  ) {}

  /** Reports the call's end (`TOOL_CALL_END`) with its result; a second end is ignored. */
  async end(end: HostedToolEnd): Promise<void> {
    if (this.done) return;
    this.done = true;
    const at = end.at ?? Date.now();
    const isError = end.isError === true;
    const result: ToolResult = {
      toolCallId: this.toolCall.id,
      name: this.toolCall.name,
      content: end.content,
      isError,
    };
    await this.run.emit(
      this.span,
      HookEvent.TOOL_CALL_END,
      {
        toolCall: this.toolCall,
        result,
        rawResult: end.rawResult,
        durationMs: Math.max(0, at - this.startedAt),
        outcome: end.outcome ?? (isError ? "failed" : "executed"),
        permission: this.permission,
      },
      at,
    );
  }
}
