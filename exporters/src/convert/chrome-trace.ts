import { Hx, mapSpans, type MappedSpan, type MapSpansOptions, type TraceEvent } from "@harnessx/core/tracing";

/** One entry of the Chrome/Perfetto trace-event format (times in microseconds). */
export interface TraceEventEntry {
  /** Slice or event name (the span's name); `process_name`/`thread_name` for metadata, `tool_call` for flow arrows. */
  name: string;
  /** Phase: `X` a complete slice, `M` metadata, `s`/`f` start and end of a flow arrow, `i` an instant event. */
  ph: "X" | "M" | "s" | "f" | "i";
  /** Process id: one per run, numbered from 1 in the order the runs appear. */
  pid: number;
  /** Track within the run: 1 the agent, 2 model calls, 3 and up one per concurrent tool call. */
  tid: number;
  /** Start, in microseconds since the earliest span; absent on `M` records. */
  ts?: number;
  /** Duration of an `X` slice, in microseconds; absent on other phases. */
  dur?: number;
  /** Category: `agent`, `model`, `tool`, `event` or `flow`; absent on `M` records. */
  cat?: string;
  /** Flow arrow id, shared by its `s` and `f` records; absent on other phases. */
  id?: number;
  /** `e` on a flow's end: bind the arrow to the enclosing slice. */
  bp?: "e";
  /** `t` on instant events: scoped to their track. */
  s?: "t";
  /** The span's attributes (and error), an event's attributes, or the name given by an `M` record. */
  args?: Record<string, unknown>;
}

/** The JSON object `toChromeTrace` returns: load it in Perfetto or `chrome://tracing`. */
export interface ChromeTrace {
  /** Every slice, instant, flow and metadata record. */
  traceEvents: TraceEventEntry[];
  /** Viewers show times in milliseconds (the data stays in microseconds). */
  displayTimeUnit: "ms";
  /** Facts about the trace, shown by viewers as metadata. */
  otherData: {
    /** Always `"@harnessx/exporters"`. */
    producer: string;
    /** ISO 8601 time of the earliest span (`ts` 0); absent when there are no spans. */
    startTime?: string;
  };
}

const AGENT_TID = 1;
const MODEL_TID = 2;
const FIRST_TOOL_TID = 3;

/** Lanes for tool calls: a call takes the first lane free at its start, so parallel calls sit on separate tracks. */
function laneOf(lanes: number[], start: number, end: number): number {
  let lane = lanes.findIndex((busyUntil) => busyUntil <= start);
  if (lane === -1) lane = lanes.push(end) - 1;
  else lanes[lane] = end;
  return lane;
}

function args(span: MappedSpan): Record<string, unknown> {
  const out: Record<string, unknown> = { ...span.attributes };
  if (span.error) out.error = span.error;
  return out;
}

/** A run's process name, `invoke_agent <agent> (<run id>)`: the id from the run's data, else its span attribute; left out rather than printed as "undefined". */
function processName(run: MappedSpan): string {
  const fromDetail = run.detail.role === "agent" ? run.detail.start.runId : undefined;
  const fromAttributes = run.attributes[Hx.RUN_ID];
  const runId =
    typeof fromDetail === "string" && fromDetail !== ""
      ? fromDetail
      : typeof fromAttributes === "string" && fromAttributes !== ""
        ? fromAttributes
        : undefined;
  return runId === undefined ? run.name : `${run.name} (${runId})`;
}

/**
 * The Chrome/Perfetto trace-event JSON of the recorded runs: a process per
 * run, an `agent` track with the run slice, a `model` track with model calls,
 * one `tools` track per concurrent tool call, flow arrows from each model
 * reply to the tool calls it asked for, instant events for retries,
 * recoveries and denials, and `M` records naming processes and tracks.
 */
export function toChromeTrace(events: Iterable<TraceEvent>, options: MapSpansOptions = {}): ChromeTrace {
  return spansToChromeTrace(mapSpans(events, { keepDetail: false, ...options }));
}

/** `toChromeTrace` of spans already mapped (core's `SpanStream` over a recording read one event at a time). */
export function spansToChromeTrace(spans: readonly MappedSpan[]): ChromeTrace {
  const t0 = spans.reduce((min, s) => Math.min(min, s.startMs), Number.POSITIVE_INFINITY);
  const us = (ms: number) => Math.round((ms - t0) * 1000);
  const out: TraceEventEntry[] = [];
  const runs = spans.filter((s) => s.role === "agent");
  let flowId = 0;
  runs.forEach((run, index) => {
    const pid = index + 1;
    const children = spans.filter((s) => s.parentSpanId === run.spanId).sort((a, b) => a.startMs - b.startMs);
    out.push({ name: "process_name", ph: "M", pid, tid: AGENT_TID, args: { name: processName(run) } });
    out.push({ name: "thread_name", ph: "M", pid, tid: AGENT_TID, args: { name: "agent" } });
    out.push({ name: "thread_name", ph: "M", pid, tid: MODEL_TID, args: { name: "model" } });
    out.push({
      name: run.name,
      cat: "agent",
      ph: "X",
      pid,
      tid: AGENT_TID,
      ts: us(run.startMs),
      dur: us(run.endMs) - us(run.startMs),
      args: args(run),
    });
    const lanes: number[] = [];
    const tidOfCall = new Map<string, { tid: number; start: number }>();
    for (const child of children) {
      if (child.role !== "tool") continue;
      const tid = FIRST_TOOL_TID + laneOf(lanes, child.startMs, child.endMs);
      if (child.detail.role === "tool") tidOfCall.set(child.detail.toolCall.id, { tid, start: child.startMs });
      out.push({
        name: child.name,
        cat: "tool",
        ph: "X",
        pid,
        tid,
        ts: us(child.startMs),
        dur: us(child.endMs) - us(child.startMs),
        args: args(child),
      });
      for (const e of child.events)
        out.push({ name: e.name, cat: "event", ph: "i", s: "t", pid, tid, ts: us(e.time), args: e.attributes });
    }
    lanes.forEach((_, lane) => {
      out.push({ name: "thread_name", ph: "M", pid, tid: FIRST_TOOL_TID + lane, args: { name: `tools #${lane + 1}` } });
    });
    for (const child of children) {
      if (child.role !== "chat") continue;
      const start = us(child.startMs);
      const end = us(child.endMs);
      out.push({
        name: child.name,
        cat: "model",
        ph: "X",
        pid,
        tid: MODEL_TID,
        ts: start,
        dur: end - start,
        args: args(child),
      });
      for (const e of child.events)
        out.push({
          name: e.name,
          cat: "event",
          ph: "i",
          s: "t",
          pid,
          tid: MODEL_TID,
          ts: us(e.time),
          args: e.attributes,
        });
      const reply = child.detail.role === "chat" ? child.detail.response?.response?.content : undefined;
      for (const block of Array.isArray(reply) ? reply : []) {
        if (block.type !== "tool_call") continue;
        const target = tidOfCall.get(block.id);
        if (!target) continue;
        const id = ++flowId;
        // The arrow leaves from inside the reply slice and lands on the tool call's slice.
        out.push({ name: "tool_call", cat: "flow", ph: "s", id, pid, tid: MODEL_TID, ts: Math.max(start, end - 1) });
        out.push({ name: "tool_call", cat: "flow", ph: "f", bp: "e", id, pid, tid: target.tid, ts: us(target.start) });
      }
    }
    for (const e of run.events)
      out.push({
        name: e.name,
        cat: "event",
        ph: "i",
        s: "t",
        pid,
        tid: AGENT_TID,
        ts: us(e.time),
        args: e.attributes,
      });
  });
  return {
    traceEvents: out,
    displayTimeUnit: "ms",
    otherData: {
      producer: "@harnessx/exporters",
      ...(Number.isFinite(t0) ? { startTime: new Date(t0).toISOString() } : {}),
    },
  };
}
