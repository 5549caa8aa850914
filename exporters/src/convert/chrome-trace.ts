import { mapSpans, type MappedSpan, type MapSpansOptions, type TraceEvent } from "@harnessx/core";

/** One entry of the Chrome/Perfetto trace-event format (times in microseconds). */
export interface TraceEventEntry {
  name: string;
  ph: "X" | "M" | "s" | "f" | "i";
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  id?: number;
  bp?: "e";
  s?: "t";
  args?: Record<string, unknown>;
}

export interface ChromeTrace {
  traceEvents: TraceEventEntry[];
  displayTimeUnit: "ms";
  otherData: { producer: string; startTime?: string };
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
  if (span.error) out["error"] = span.error;
  return out;
}

/**
 * The Chrome/Perfetto trace-event JSON of the recorded runs: a process per
 * run, an `agent` track with the run slice, a `model` track with model calls,
 * one `tools` track per concurrent tool call, flow arrows from each model
 * reply to the tool calls it asked for, instant events for retries,
 * recoveries and denials, and `M` records naming processes and tracks.
 */
export function toChromeTrace(events: readonly TraceEvent[], options: MapSpansOptions = {}): ChromeTrace {
  const spans = mapSpans(events, options);
  const t0 = spans.reduce((min, s) => Math.min(min, s.startMs), Number.POSITIVE_INFINITY);
  const us = (ms: number) => Math.round((ms - t0) * 1000);
  const out: TraceEventEntry[] = [];
  const runs = spans.filter((s) => s.role === "agent");
  let flowId = 0;
  runs.forEach((run, index) => {
    const pid = index + 1;
    const runId = run.detail.role === "agent" ? run.detail.start.runId : run.traceId;
    const children = spans.filter((s) => s.parentSpanId === run.spanId).sort((a, b) => a.startMs - b.startMs);
    out.push({ name: "process_name", ph: "M", pid, tid: AGENT_TID, args: { name: `${run.name} (${runId})` } });
    out.push({ name: "thread_name", ph: "M", pid, tid: AGENT_TID, args: { name: "agent" } });
    out.push({ name: "thread_name", ph: "M", pid, tid: MODEL_TID, args: { name: "model" } });
    out.push({ name: run.name, cat: "agent", ph: "X", pid, tid: AGENT_TID, ts: us(run.startMs), dur: us(run.endMs) - us(run.startMs), args: args(run) });
    const lanes: number[] = [];
    const tidOfCall = new Map<string, { tid: number; start: number }>();
    for (const child of children) {
      if (child.role !== "tool") continue;
      const tid = FIRST_TOOL_TID + laneOf(lanes, child.startMs, child.endMs);
      if (child.detail.role === "tool") tidOfCall.set(child.detail.toolCall.id, { tid, start: child.startMs });
      out.push({ name: child.name, cat: "tool", ph: "X", pid, tid, ts: us(child.startMs), dur: us(child.endMs) - us(child.startMs), args: args(child) });
      for (const e of child.events) out.push({ name: e.name, cat: "event", ph: "i", s: "t", pid, tid, ts: us(e.time), args: e.attributes });
    }
    lanes.forEach((_, lane) => out.push({ name: "thread_name", ph: "M", pid, tid: FIRST_TOOL_TID + lane, args: { name: `tools #${lane + 1}` } }));
    for (const child of children) {
      if (child.role !== "chat") continue;
      const start = us(child.startMs);
      const end = us(child.endMs);
      out.push({ name: child.name, cat: "model", ph: "X", pid, tid: MODEL_TID, ts: start, dur: end - start, args: args(child) });
      for (const e of child.events) out.push({ name: e.name, cat: "event", ph: "i", s: "t", pid, tid: MODEL_TID, ts: us(e.time), args: e.attributes });
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
    for (const e of run.events) out.push({ name: e.name, cat: "event", ph: "i", s: "t", pid, tid: AGENT_TID, ts: us(e.time), args: e.attributes });
  });
  return {
    traceEvents: out,
    displayTimeUnit: "ms",
    otherData: { producer: "@harnessx/exporters", ...(Number.isFinite(t0) ? { startTime: new Date(t0).toISOString() } : {}) },
  };
}
