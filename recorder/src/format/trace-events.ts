import { ALL_HOOK_EVENTS, type HookEvent } from "@harnessx/core/extension";
import { isSpanId, isTraceId, type SpanContext, type TraceEvent } from "@harnessx/core/tracing";
import { decodeAttributes, spanRoleOf } from "./event-codec.js";
import type { RecordedEvent } from "./event.js";
import { isRecord, RequestRebuilder } from "./request-rebuilder.js";

const HOOK_KINDS = new Set<string>(ALL_HOOK_EVENTS);

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

/** The hook payload as far as an event line's attributes tell it (the codec's reading; a kind it does not declare keeps its data). */
function factsFromAttrs(event: RecordedEvent): unknown {
  return decodeAttributes(event.kind, event.runId, event.attrs) ?? event.payload ?? event.attrs;
}

function spanOf(event: RecordedEvent, traceId: string | undefined): SpanContext | undefined {
  const role = spanRoleOf(event.kind);
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
  if (!isRecord(data)) return data;
  const request = isRecord(data.request) ? data.request : {};
  return { ...(decodeAttributes("llm_request", "", attrs) as object), system: request.system, ...data };
}
