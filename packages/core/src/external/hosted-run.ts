import { addCost, type RunCost } from "../cost/call-cost.js";
import { addUsage } from "../engine/content.js";
import { errorSource } from "../engine/error-source.js";
import type { RunResult, RunStatus } from "../engine/run-types.js";
import type { EngineServices } from "../engine/services.js";
import { ExtensionError, HarnessError, RunError, toError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import type { ErrorSource, HookPayloads, RunAttributeValue } from "../hooks/payloads.js";
import { Hx } from "../spans/attributes.js";
import { inScope } from "../spans/scopes.js";
import type { SpanContext } from "../spans/span-context.js";
import type { ToolCall, Usage } from "../types/content.js";
import type { ModelRequest } from "../types/provider.js";
import { newId } from "../util/ids.js";
import { HostedModelCall, HostedToolCall, type HostedRunParts } from "./hosted-calls.js";

/** The run attribute naming the framework a hosted run was made with (`ai-sdk`, `openai-agents`). */
export const FRAMEWORK_ATTRIBUTE = Hx.FRAMEWORK;

/** How a hosted run starts (`AGENT_START`). */
export interface HostedRunStart {
  /** The run's input, as the user gave it. */
  input: string;
  /** Model the run calls; default the host's `model`. */
  model?: string;
  /** More attributes of the run's span (`harnessx.framework` is set by the host). */
  attributes?: Readonly<Record<string, RunAttributeValue>>;
  /** The span the run sits under (a tool call of an outer run); default: whatever scope is current. */
  parent?: SpanContext;
  /** When it started, ms since the epoch; default now. */
  at?: number;
}

/** How a hosted run ended (`AGENT_END`). */
export interface HostedRunEnd {
  /** `completed`, `failed` (give `error`) or `cancelled`. */
  status: Exclude<RunStatus, "awaiting_approval">;
  /** The run's final answer ("" when it has none). */
  text: string;
  /** Why it failed or was cancelled; a plain error becomes a `RunError` (`run_failed`). */
  error?: unknown;
  /** Where the failure came from, for its `ERROR` event; default by the error's class, as for native runs. */
  source?: ErrorSource;
  /** When it ended, ms since the epoch; default now. */
  at?: number;
}

/**
 * One run another framework made, reported event by event. Model and tool calls open their
 * spans under the run's (as the engine's do); the run sums their usage and cost into the
 * `RunResult` its `AGENT_END` carries. Observer and extension failures become `ERROR` events,
 * never exceptions: the framework's run goes on whatever a recorder does.
 */
export class HostedRun {
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0 };
  private readonly cost: RunCost = { usd: null, unpricedCalls: 0 };
  private modelCalls = 0;
  private ended: RunResult | undefined;

  /** What its calls reach of the run: never handed to the adapter. */
  private readonly parts: HostedRunParts;

  private constructor(
    private readonly services: EngineServices,
    /** Id of the run (`run_...`): the recording's name. */
    readonly runId: string,
    /** The run's span. */
    readonly span: SpanContext,
    /** The framework that made the run. */
    readonly framework: string,
  ) {
    this.parts = {
      providerName: services.info.provider,
      emit: (span, event, data, at) => this.emit(span, event, data, at),
      price: async (usage, model, provider) => {
        const cost = await services.pricer.price(usage, model, provider);
        this.modelCalls++;
        addUsage(this.usage, usage);
        addCost(this.cost, cost);
        return cost;
      },
    };
  }

  /** @internal Opens the run's span and fires `AGENT_START`, then the extensions' session and turn starts (`RunHost.startRun`). */
  static async start(services: EngineServices, framework: string, start: HostedRunStart): Promise<HostedRun> {
    const runId = newId("run");
    const open = () => services.spans.open("agent", services.config.name, runId);
    const span = start.parent ? inScope({ runId, span: start.parent }, open) : open();
    const run = new HostedRun(services, runId, span, framework);
    const attributes = { ...services.runAttributes(), ...start.attributes, [FRAMEWORK_ATTRIBUTE]: framework };
    await run.emit(
      span,
      HookEvent.AGENT_START,
      { runId, input: start.input, model: start.model ?? services.config.model, resumed: false, attributes },
      start.at,
    );
    await run.guarded(async () => {
      await services.extensions.sessionStart();
      await services.extensions.turnStart(start.input);
    });
    return run;
  }

  /** True once `end` was called. */
  get isEnded(): boolean {
    return this.ended !== undefined;
  }

  /** Runs `work` inside the scope of `span` (the run's, or one of its calls'): a harnessx agent run there nests under it. */
  within<T>(span: SpanContext, work: () => T): T {
    return inScope({ runId: this.runId, span }, work);
  }

  /** Reports a model call about to be sent (`LLM_REQUEST`); end it with the reply or a failure. */
  async startModelCall(call: { request: ModelRequest; at?: number }): Promise<HostedModelCall> {
    const span = this.openSpan("chat", call.request.model);
    const at = call.at ?? Date.now();
    await this.emit(span, HookEvent.LLM_REQUEST, HostedModelCall.requestData(call.request), at);
    return new HostedModelCall(this.parts, span, call.request, at);
  }

  /** Reports a tool call about to run (`TOOL_CALL_START`); end it with its result. */
  async startToolCall(call: {
    toolCall: ToolCall;
    attributes?: Readonly<Record<string, string | number | boolean>>;
    at?: number;
  }): Promise<HostedToolCall> {
    const span = this.openSpan("tool", call.toolCall.name);
    const at = call.at ?? Date.now();
    const permission = { decision: "allow" as const, source: this.framework };
    await this.emit(
      span,
      HookEvent.TOOL_CALL_START,
      { toolCall: call.toolCall, permission, ...(call.attributes ? { attributes: call.attributes } : {}) },
      at,
    );
    return new HostedToolCall(this.parts, span, call.toolCall, permission, at);
  }

  /** Reports a failure that does not end the run (an `ERROR` event on the run's span). */
  reportError(error: unknown, options: { source?: ErrorSource; at?: number } = {}): Promise<void> {
    return this.emit(
      this.span,
      HookEvent.ERROR,
      { source: options.source ?? "provider", error: toError(error) },
      options.at,
    );
  }

  /**
   * Reports the run's end: `ERROR` when it failed, `AGENT_END` with the result (usage and cost
   * summed over the calls reported), then the extensions' turn end. A second call changes nothing.
   */
  async end(end: HostedRunEnd): Promise<RunResult> {
    if (this.ended) return this.ended;
    let status = end.status;
    let error = end.error === undefined ? undefined : asHarnessError(end.error, status);
    if (status === "completed") {
      const failed = await this.guarded(() => this.services.extensions.turnSuccess(end.text));
      if (failed) [status, error] = ["failed", failed];
    } else
      error ??=
        status === "cancelled"
          ? new HarnessError("cancelled", "the run was cancelled")
          : new RunError("run_failed", "the run failed");
    const result: RunResult = {
      status,
      text: end.text,
      ...(error ? { error } : {}),
      pending: [],
      usage: { ...this.usage, cost: { ...this.cost } },
      runId: this.runId,
      modelCalls: this.modelCalls,
    };
    this.ended = result;
    if (status === "failed" && error) {
      const source = end.source ?? errorSource(error);
      await this.emit(
        this.span,
        HookEvent.ERROR,
        { source, error, ...(error instanceof ExtensionError ? { extension: error.extension } : {}) },
        end.at,
      );
    }
    await this.emit(this.span, HookEvent.AGENT_END, { result }, end.at);
    await this.services.extensions.turnEnd(result);
    return result;
  }

  /** Opens a span for a call of this run, under the run's span. */
  private openSpan(role: "chat" | "tool", subject: string): SpanContext {
    return this.within(this.span, () => this.services.spans.open(role, subject, this.runId));
  }

  /**
   * Fires any other hook event (a `CUSTOM` one, a `RETRY`) as if from inside `span` (the run's or
   * one of its calls'), stamped `at` (default now). The run's own events have their methods above.
   */
  emit<E extends HookEvent>(span: SpanContext, event: E, data: HookPayloads[E], at?: number): Promise<void> {
    return this.within(span, () => this.services.hooks.emit(event, data, at)) ?? Promise.resolve();
  }

  /** Runs extension lifecycle work; a failure is reported as an `ERROR` (source `extension`) and returned. */
  private async guarded(work: () => Promise<void>): Promise<HarnessError | undefined> {
    try {
      await this.within(this.span, work);
      return undefined;
    } catch (err) {
      const error =
        err instanceof HarnessError ? err : new ExtensionError("unknown", toError(err).message, { cause: err });
      await this.emit(this.span, HookEvent.ERROR, {
        source: "extension",
        error,
        ...(error instanceof ExtensionError ? { extension: error.extension } : {}),
      });
      return error;
    }
  }
}

function asHarnessError(error: unknown, status: RunStatus): HarnessError {
  if (error instanceof HarnessError) return error;
  const cause = toError(error);
  return status === "cancelled"
    ? new HarnessError("cancelled", cause.message, { cause })
    : new RunError("run_failed", cause.message, { cause });
}
