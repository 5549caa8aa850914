import { GenAI, Hx, mapSpans, type MappedSpan, type SpanRole } from "@harnessx/core/tracing";
import type { RecordedEvent } from "../format/event.js";
import { traceEventsOf } from "../format/trace-events.js";

/** One row of the `spans` table: a span as every backend shows it, with the facts SQL wants as columns. */
export interface SpanRow {
  /** The run the span belongs to. */
  runId: string;
  /** W3C trace id (hex): the run's, as the live trace had it when `run.json` records one. */
  traceId: string;
  /** Span id (hex), the same a live exporter sent. */
  spanId: string;
  /** The parent span's id; null for a root span (a run span not started inside another). */
  parentSpanId: string | null;
  /** `run`, `model` or `tool`. */
  kind: "run" | "model" | "tool";
  /** The span name backends show (`invoke_agent support-bot`, `chat gpt-4o`, `execute_tool search`). */
  name: string;
  /** Milliseconds since the epoch when the span started. */
  startTs: number;
  /** Null while the span is open (the run still going, or crashed inside it). */
  endTs: number | null;
  /** `ok`, `error` (the span's status is an error) or `open`. */
  status: "ok" | "error" | "open";
  /** Input tokens of a model call, or the run's total for a run span (0 when not reported); null for tool spans. */
  inputTokens: number | null;
  /** Output tokens, like `inputTokens`. */
  outputTokens: number | null;
  /** What a model call cost in US dollars, or the run's priced calls together for a run span; null for tool spans and calls without a price. */
  costUsd: number | null;
  /** Recorded events that carry this span's id or hang under it. */
  events: number;
  /** The span's attributes (GenAI conventions and `harnessx.*`), as exported. */
  attrs: Record<string, unknown>;
}

const KIND_OF: Record<SpanRole, SpanRow["kind"]> = { agent: "run", chat: "model", tool: "tool" };

/**
 * The spans of recorded runs through core's one mapping (the live exporters' own), read from
 * the events' summary attributes: names, kinds, parents, statuses, tokens and ids as backends
 * see them. `runs` gives each run's trace id from its `run.json`; `knownCounts` (span id -> events)
 * when the caller counted the events itself and passes only those the mapping reads.
 */
export function spanRows(
  events: readonly RecordedEvent[],
  runs: ReadonlyMap<string, { traceId?: string; agent: string; sessionId: string }>,
  knownCounts?: ReadonlyMap<string, number>,
): SpanRow[] {
  const byRun = new Map<string, RecordedEvent[]>();
  const counts = new Map<string, number>();
  for (const e of events) {
    const list = byRun.get(e.runId) ?? [];
    list.push(e);
    byRun.set(e.runId, list);
    const id = e.spanId ?? e.parentSpanId;
    if (id && !knownCounts) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const countOf = (spanId: string): number => (knownCounts ?? counts).get(spanId) ?? 0;
  const rows: SpanRow[] = [];
  for (const [runId, runEvents] of byRun) {
    const run = runs.get(runId);
    const { events: traced } = traceEventsOf(runEvents, { traceId: run?.traceId, attrsOnly: true });
    for (const span of mapSpans(traced, {
      agent: run ? { name: run.agent, sessionId: run.sessionId } : {},
      keepDetail: false,
    }))
      rows.push(spanRow(runId, span, countOf(span.spanId)));
  }
  return rows;
}

const numberOr = <T>(value: unknown, otherwise: T): number | T => (typeof value === "number" ? value : otherwise);

/** A mapped span as a `spans` row (`events`: the recorded events that carry its id or hang under it). */
export function spanRow(runId: string, span: MappedSpan, events: number): SpanRow {
  const open = span.error?.type === "unfinished" || span.attributes[Hx.RUN_STATUS] === "unfinished";
  const tokens = (key: string): number | null => {
    const value = span.attributes[key];
    return typeof value === "number" ? value : span.role === "tool" ? null : 0;
  };
  return {
    runId,
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId ?? null,
    kind: KIND_OF[span.role],
    name: span.name,
    startTs: span.startMs,
    endTs: open ? null : span.endMs,
    status: open ? "open" : span.error ? "error" : "ok",
    inputTokens: tokens(GenAI.USAGE_INPUT_TOKENS),
    outputTokens: tokens(GenAI.USAGE_OUTPUT_TOKENS),
    costUsd: numberOr(span.attributes[Hx.COST_USD], null),
    events,
    attrs: span.attributes,
  };
}
