import { ALL_HOOK_EVENTS, type HookEvent } from "@harnessx/core/extension";
import { isSpanId, isTraceId, type SpanContext, type SpanRole, type TraceEvent } from "@harnessx/core/tracing";
import { cacheTokensOf } from "./cache-tokens.js";
import type { RecordedEvent } from "./event.js";
import { isRecord, RequestRebuilder } from "./request-rebuilder.js";

const HOOK_KINDS = new Set<string>(ALL_HOOK_EVENTS);
const ROLE_OF: Partial<Record<string, SpanRole>> = {
  agent_start: "agent",
  agent_end: "agent",
  llm_request: "chat",
  llm_response: "chat",
  tool_call_start: "tool",
  tool_call_end: "tool",
};

/** Options of `traceEventsOf`. */
export interface TraceEventsOptions {
  /** The run's trace id (`run.json`'s `traceId`); without one, recorded span ids are not used. */
  traceId?: string;
  /**
   * Read only the summary attributes every event line carries, not payloads: enough for span
   * names, kinds, statuses, timings and tokens (the `spans` table), not for content.
   */
  attrsOnly?: boolean;
}

/** What `traceEventsOf` returns. */
export interface RecordedTraceEvents {
  /** The hook events in recorded order, ready for `mapSpans` and the exporters' converters. */
  events: TraceEvent[];
  /** Hook events left out because their payload was not available (an unresolved `payloadRef`). */
  skipped: number;
}

/**
 * A recording's hook events as the span mapping reads them, in order: payloads resolved by the
 * reader first, model requests rebuilt whole (the recorder stores their messages incrementally),
 * an LLM_REQUEST's top-level facts put back from its attributes, and each span event given the
 * span identity the recording holds, so mapped spans keep the ids the live trace had.
 */
export function traceEventsOf(
  recorded: Iterable<RecordedEvent>,
  options: TraceEventsOptions = {},
): RecordedTraceEvents {
  const reader = new TraceEventReader(options);
  const events: TraceEvent[] = [];
  for (const raw of recorded) {
    const event = reader.read(raw);
    if (event) events.push(event);
  }
  return { events, skipped: reader.skipped };
}

/**
 * `traceEventsOf` one recorded event at a time, for a recording read as a stream: what it
 * returns depends only on the events read before (requests are rebuilt from them).
 */
export class TraceEventReader {
  /** Hook events left out so far because their payload was not available. */
  skipped = 0;
  private readonly rebuilder = new RequestRebuilder();

  constructor(private readonly options: TraceEventsOptions = {}) {}

  /** The hook event a recorded event stands for; undefined for events that are not hook events, or have no payload. */
  read(raw: RecordedEvent): TraceEvent | undefined {
    if (!HOOK_KINDS.has(raw.kind)) return undefined;
    let data: unknown;
    if (this.options.attrsOnly) data = factsFromAttrs(raw);
    else if (raw.payload === undefined || raw.payload === null) {
      this.skipped++;
      return undefined;
    } else {
      const event = raw.kind === "llm_request" ? this.rebuilder.apply(raw) : raw;
      // AGENT_START's recorded payload leaves out the run id its line carries; the mapping reads it there.
      data =
        event.kind === "llm_request"
          ? requestFacts(event.payload, event.attrs)
          : event.kind === "agent_start" && isRecord(event.payload)
            ? { runId: event.runId, ...event.payload }
            : event.payload;
      // The span attributes of a run's or tool call's start are kept in the line's attributes only.
      if (
        (raw.kind === "agent_start" || raw.kind === "tool_call_start") &&
        isRecord(data) &&
        isRecord(raw.attrs.spanAttributes)
      )
        data = { ...data, attributes: raw.attrs.spanAttributes };
    }
    if (data === undefined) return undefined;
    const span = spanOf(raw, this.options.traceId);
    // A recorded payload is the hook payload after JSON: the mapping reads it as such.
    return { kind: raw.kind as HookEvent, ts: raw.ts, runId: raw.runId, ...(span ? { span } : {}), data } as TraceEvent;
  }
}

/** The hook payload as far as an event line's attributes tell it (see `eventContent`, which writes them). */
function factsFromAttrs(event: RecordedEvent): unknown {
  const a = event.attrs;
  const num = (v: unknown): number => (typeof v === "number" ? v : 0);
  switch (event.kind) {
    case "agent_start":
      return {
        runId: event.runId,
        input: "",
        model: a.model,
        resumed: a.resumed === true,
        ...(a.spanAttributes && typeof a.spanAttributes === "object" ? { attributes: a.spanAttributes } : {}),
      };
    case "agent_end":
      return {
        result: {
          status: a.status,
          text: "",
          pending: [],
          usage: {
            inputTokens: num(a.inputTokens),
            outputTokens: num(a.outputTokens),
            ...(isRecord(a.cost) ? { cost: a.cost } : {}),
          },
          runId: event.runId,
          modelCalls: num(a.modelCalls),
          ...(a.errorName ? { error: { name: a.errorName, code: a.errorCode, message: a.errorMessage ?? "" } } : {}),
        },
      };
    case "llm_request":
      return requestFacts(
        { request: { model: a.model, maxTokens: a.maxTokens, temperature: a.temperature, stream: a.stream } },
        a,
      );
    case "llm_response":
      return {
        response: { content: [], id: a.responseId },
        provider: a.provider,
        model: a.model,
        usage: { inputTokens: num(a.inputTokens), outputTokens: num(a.outputTokens), ...cacheTokensOf(a) },
        ...(isRecord(a.cost) ? { cost: a.cost } : {}),
        stopReason: a.stopReason,
        durationMs: a.durationMs,
      };
    case "tool_call_start":
    case "tool_call_end": {
      const toolCall = { id: a.toolCallId, name: a.toolName, input: {} };
      const permission = a.permission ? { decision: a.permission, source: a.permissionSource } : undefined;
      if (event.kind === "tool_call_start")
        return {
          toolCall,
          permission,
          ...(a.spanAttributes && typeof a.spanAttributes === "object" ? { attributes: a.spanAttributes } : {}),
        };
      const result = {
        toolCallId: a.toolCallId,
        name: a.toolName,
        content: "",
        isError: a.isError === true,
        ...(Array.isArray(a.artifacts) ? { artifacts: a.artifacts } : {}),
      };
      return { toolCall, result, durationMs: a.durationMs, outcome: a.outcome, ...(permission ? { permission } : {}) };
    }
    case "retry":
      return {
        target: a.target,
        attempt: a.attempt,
        delayMs: a.delayMs,
        error: { name: a.errorName, message: a.errorMessage ?? "" },
        ...(a.toolCallId ? { toolCall: { id: a.toolCallId, name: a.toolName, input: {} } } : {}),
      };
    case "error":
      return {
        source: a.source,
        error: { name: a.errorName, message: a.errorMessage ?? "", code: a.errorCode },
        ...(a.extension ? { extension: a.extension } : {}),
        ...(a.event ? { event: a.event } : {}),
        ...(a.dropped !== undefined ? { dropped: a.dropped } : {}),
      };
    default:
      return event.payload ?? a;
  }
}

function spanOf(event: RecordedEvent, traceId: string | undefined): SpanContext | undefined {
  const role = ROLE_OF[event.kind];
  if (!role || !isTraceId(traceId) || !isSpanId(event.spanId)) return undefined;
  return {
    traceId,
    spanId: event.spanId,
    role,
    ...(isSpanId(event.parentSpanId) ? { parentSpanId: event.parentSpanId } : {}),
  };
}

/**
 * The recorder keeps an LLM_REQUEST's request in the payload and its top-level facts (model,
 * budget, temperature) in `attrs`: put the hook payload back together.
 */
function requestFacts(data: unknown, attrs: Record<string, unknown>): unknown {
  if (!data || typeof data !== "object") return data;
  const payload = data as Record<string, unknown>;
  const request = (payload.request && typeof payload.request === "object" ? payload.request : {}) as Record<
    string,
    unknown
  >;
  return {
    model: request.model ?? attrs.model,
    maxTokens: request.maxTokens ?? attrs.maxTokens,
    temperature: request.temperature ?? attrs.temperature,
    system: request.system,
    stream: request.stream ?? attrs.stream,
    messageCount: attrs.messageCount,
    toolCount: attrs.toolCount,
    prefixKey: attrs.prefixKey,
    ...payload,
  };
}
