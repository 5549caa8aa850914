import type { HookEvent } from "../hooks/events.js";
import type {
  AgentEndData,
  AgentStartData,
  ErrorData,
  LlmRequestData,
  LlmResponseData,
  RetryData,
  ToolCallEndData,
  ToolCallStartData,
} from "../hooks/payloads.js";
import type { SpanContext } from "./span-context.js";
import { Hx } from "./attributes.js";
import { spanError } from "./errors.js";
import {
  condensedAttributes,
  deniedAttributes,
  errorAttributes,
  recoveryAttributes,
  retryAttributes,
} from "./event-attributes.js";
import {
  agentClose,
  agentOpen,
  chatClose,
  chatOpen,
  failedClose,
  toolClose,
  toolOpen,
  type MappingOptions,
} from "./span-specs.js";
import type { TracedAgent, Attributes, SpanDetail, SpanOpen, SpanSink, TraceEvent } from "./span-model.js";
import { spillOf } from "./spill.js";
import { cacheBreakAttributes, PROMPT_CACHE_BREAK } from "./prompt-cache-break.js";

interface Open<H> {
  handle: H;
  detail: SpanDetail;
}

interface RunState<H> {
  span: H;
  start: AgentStartData;
  chat?: Open<H> & { request: LlmRequestData };
  tools: Map<string, Open<H>>;
}

/** The hook events the mapping reads; observing only these spares the engine building contexts for the rest. */
export const TRACED_EVENTS = [
  "agent_start",
  "agent_end",
  "llm_request",
  "llm_response",
  "tool_call_start",
  "tool_call_end",
  "retry",
  "recovery",
  "context_condensed",
  "error",
  "custom",
] as const satisfies readonly HookEvent[];

/**
 * The one mapping from hook events to spans, shared by the live extensions
 * and the offline converters: a run span (`invoke_agent`) with `chat` and
 * `execute_tool` children, span events for retries, recoveries, condensing,
 * denials and errors. Feed it events in order; it drives a sink.
 */
export class SpanMapper<H> {
  private readonly runs = new Map<string, RunState<H>>();

  constructor(
    private readonly sink: SpanSink<H>,
    private readonly info: TracedAgent,
    private readonly options: MappingOptions,
  ) {}

  /** Runs with an open span (a run waiting for approval stays open). */
  get openRuns(): number {
    return this.runs.size;
  }

  /** Maps one event onto the sink (opening, annotating or closing spans); events outside a run are ignored. */
  handle(e: TraceEvent): void {
    if (e.runId === undefined) return;
    switch (e.kind) {
      case "agent_start":
        this.agentStart(e.runId, e.data, e.ts, e.span);
        break;
      case "agent_end":
        this.agentEnd(e.runId, e.data, e.ts);
        break;
      case "llm_request":
        this.llmRequest(e.runId, e.data, e.ts, e.span);
        break;
      case "llm_response":
        this.llmResponse(e.runId, e.data, e.ts);
        break;
      case "tool_call_start":
        this.toolStart(e.runId, e.data, e.ts, e.span);
        break;
      case "tool_call_end":
        this.toolEnd(e.runId, e.data, e.ts, e.span);
        break;
      case "retry":
        this.retry(e.runId, e.data, e.ts);
        break;
      case "recovery":
        this.runEvent(e.runId, Hx.EVENT_RECOVERY, e.ts, recoveryAttributes(e.data));
        break;
      case "context_condensed":
        this.runEvent(e.runId, Hx.EVENT_CONDENSED, e.ts, condensedAttributes(e.data));
        break;
      case "error":
        this.error(e.runId, e.data, e.ts);
        break;
      case "custom":
        // Of extensions' own events, the trace shows what breaks the prompt cache (promptCacheExtension).
        if (e.data.name === PROMPT_CACHE_BREAK)
          this.runEvent(e.runId, Hx.EVENT_PROMPT_CACHE_BREAK, e.ts, cacheBreakAttributes(e.data.data));
        break;
      default:
        break;
    }
  }

  /** The open span of a tool call (or, without a call id, of the run), for callers that parent their own spans. */
  openHandle(runId: string, toolCallId?: string): H | undefined {
    const run = this.runs.get(runId);
    if (!run) return undefined;
    return toolCallId === undefined ? run.span : run.tools.get(toolCallId)?.handle;
  }

  /** The open span of the run's current model call, if one is open. */
  openModelHandle(runId: string): H | undefined {
    return this.runs.get(runId)?.chat?.handle;
  }

  /** Ends every open span (teardown, or the end of a recording): runs get `harnessx.run.status = "unfinished"`. */
  closeAll(time: number): void {
    for (const [runId, run] of this.runs) {
      this.closeChildren(run, time, "unfinished");
      this.sink.close(run.span, agentClose(run.start, undefined, time));
      this.runs.delete(runId);
    }
  }

  private agentStart(runId: string, start: AgentStartData, ts: number, span: SpanContext | undefined): void {
    const open = this.runs.get(runId);
    if (open) {
      this.sink.event(open.span, { name: Hx.EVENT_RESUMED, time: ts, attributes: {} });
      return;
    }
    // The event's run id goes into the data the span keeps: a recorded AGENT_START may leave it out of its payload, and the close reuses this data.
    const started = { ...start, runId };
    const handle = this.sink.open(withIds(agentOpen(this.info, started, ts), span), undefined);
    this.runs.set(runId, { span: handle, start: started, tools: new Map() });
  }

  private agentEnd(runId: string, end: AgentEndData, ts: number): void {
    const run = this.runs.get(runId);
    if (!run) return;
    this.closeChildren(run, ts, end.result?.status === "cancelled" ? "cancelled" : "run_ended");
    this.sink.close(run.span, agentClose(run.start, end.result, ts));
    this.runs.delete(runId);
  }

  private closeChildren(run: RunState<H>, ts: number, type: string): void {
    const message = `the run ended before this operation did (${type})`;
    if (run.chat) this.sink.close(run.chat.handle, failedClose({ detail: run.chat.detail }, { type, message }, ts));
    run.chat = undefined;
    for (const tool of run.tools.values())
      this.sink.close(tool.handle, failedClose({ detail: tool.detail }, { type, message }, ts));
    run.tools.clear();
  }

  private llmRequest(runId: string, request: LlmRequestData, ts: number, span: SpanContext | undefined): void {
    const run = this.runs.get(runId);
    if (!run) return;
    if (run.chat)
      this.sink.close(
        run.chat.handle,
        failedClose(
          { detail: run.chat.detail },
          { type: "superseded", message: "a new model call started before this one ended" },
          ts,
        ),
      );
    const spec = withIds(chatOpen(this.info, request, ts, this.options), span);
    run.chat = { handle: this.sink.open(spec, run.span), detail: spec.detail, request };
  }

  private llmResponse(runId: string, response: LlmResponseData, ts: number): void {
    const run = this.runs.get(runId);
    if (!run?.chat) return;
    this.sink.close(run.chat.handle, chatClose(this.info, run.chat.request, response, ts, this.options));
    run.chat = undefined;
  }

  private toolStart(runId: string, start: ToolCallStartData, ts: number, span: SpanContext | undefined): void {
    const run = this.runs.get(runId);
    if (!run || !start.toolCall) return;
    const spec = withIds(toolOpen(start.toolCall, ts, this.options, start.attributes), span);
    run.tools.set(start.toolCall.id, { handle: this.sink.open(spec, run.span), detail: spec.detail });
  }

  private toolEnd(runId: string, end: ToolCallEndData, ts: number, span: SpanContext | undefined): void {
    const run = this.runs.get(runId);
    if (!run || !end.toolCall) return;
    const id = end.toolCall.id;
    let open = run.tools.get(id);
    if (!open) {
      // Refused calls (denied, unknown tool, bad input) never started: a short span still shows them.
      const spec = withIds(toolOpen(end.toolCall, ts - (end.durationMs ?? 0), this.options), span);
      open = { handle: this.sink.open(spec, run.span), detail: spec.detail };
    }
    run.tools.delete(id);
    if (end.outcome === "denied") {
      this.sink.event(open.handle, { name: Hx.EVENT_DENIED, time: ts, attributes: deniedAttributes(end) });
    }
    this.sink.close(open.handle, toolClose(end, spillOf(end.result), ts, this.options));
  }

  private retry(runId: string, d: RetryData, ts: number): void {
    const run = this.runs.get(runId);
    if (!run) return;
    const attributes = retryAttributes(d, spanError(d.error));
    const target =
      d.target === "tool" && d.toolCall
        ? run.tools.get(d.toolCall.id)?.handle
        : d.target === "model"
          ? run.chat?.handle
          : undefined;
    this.sink.event(target ?? run.span, { name: Hx.EVENT_RETRY, time: ts, attributes });
  }

  private error(runId: string, d: ErrorData, ts: number): void {
    const run = this.runs.get(runId);
    if (!run) return;
    const err = spanError(d.error);
    if (d.source === "provider" && run.chat) {
      this.sink.close(run.chat.handle, failedClose({ detail: run.chat.detail }, err, ts));
      run.chat = undefined;
      return;
    }
    this.runEvent(runId, Hx.EVENT_ERROR, ts, errorAttributes(d, err));
  }

  private runEvent(runId: string, name: string, ts: number, attributes: Attributes): void {
    const run = this.runs.get(runId);
    if (run) this.sink.event(run.span, { name, time: ts, attributes });
  }
}

/**
 * The span spec with the identity core gave the event, when it carried one. Every spec here is
 * built fresh by span-specs for this one call, so it is completed in place rather than copied.
 */
function withIds(spec: SpanOpen, span: SpanContext | undefined): SpanOpen {
  if (span) spec.span = span;
  return spec;
}
