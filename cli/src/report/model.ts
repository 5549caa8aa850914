import { errorList, type ReportError } from "./error-list.js";
import type { PackedPayloads } from "./payload-packer.js";
import type { ReportEvent, ReportRun, ReportSpan } from "./report-types.js";

export type { ReportError } from "./error-list.js";
export type { ReportEvent, ReportRun, ReportSpan } from "./report-types.js";

/**
 * The plain data an HTML report is built from, and the figures derived from it. Commands fill it
 * from a recording; tests can fill it by hand.
 */

export interface ReportData {
  run: ReportRun;
  spans: ReportSpan[];
  events: ReportEvent[];
  /** The events' payloads, already packed in event order (a large run's are packed as they are read); else each event's `payload` is. */
  payloads?: PackedPayloads;
  /** Who made the report; shown in the footer. */
  producer?: string;
}

/** A span placed on the timeline: parallel calls never share a lane. */
export interface PlacedSpan extends ReportSpan {
  lane: number;
  /** Milliseconds from the run start. */
  offsetMs: number;
  durationMs: number;
  open: boolean;
}

export interface ModelFigures {
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  p50Ms: number | null;
  maxMs: number | null;
}

/** One tool's calls, errors and latencies, as the report and the summary show them. */
export interface ToolFigures {
  tool: string;
  calls: number;
  errors: number;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
}

export interface ReportLayout {
  startTs: number;
  endTs: number;
  /** Lane 0 holds the run; model and tool calls fill lanes 1..n. */
  lanes: number;
  spans: PlacedSpan[];
  models: ModelFigures[];
  tools: ToolFigures[];
  /** The error list: each failure once, with its class, message and the call it links to. */
  errors: ReportError[];
  totals: { modelCalls: number; toolCalls: number; inputTokens: number; outputTokens: number; events: number };
}

function percentile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? null;
}

/** Places spans on lanes (greedy interval partitioning, in start order) and computes the figures. */
export function layoutReport(data: ReportData): ReportLayout {
  const lastEvent = data.events.reduce((max, e) => Math.max(max, e.ts), data.run.startTs);
  const lastSpan = data.spans.reduce((max, s) => Math.max(max, s.endTs ?? s.startTs), data.run.startTs);
  const startTs = data.spans.reduce((min, s) => Math.min(min, s.startTs), data.run.startTs);
  const endTs = Math.max(data.run.endTs ?? 0, lastEvent, lastSpan, startTs + 1);

  const laneEnds: number[] = [];
  const placed: PlacedSpan[] = [];
  const ordered = [...data.spans].sort(
    (a, b) => a.startTs - b.startTs || (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0),
  );
  for (const span of ordered) {
    const open = span.endTs === undefined;
    const end = span.endTs ?? endTs;
    let lane = 0;
    if (span.kind !== "run") {
      lane = laneEnds.findIndex((laneEnd) => laneEnd <= span.startTs) + 1;
      if (lane === 0) {
        laneEnds.push(end);
        lane = laneEnds.length;
      } else laneEnds[lane - 1] = end;
    }
    placed.push({ ...span, lane, offsetMs: span.startTs - startTs, durationMs: Math.max(0, end - span.startTs), open });
  }

  const models = new Map<string, { calls: number; inputTokens: number; outputTokens: number; durations: number[] }>();
  const tools = new Map<string, { calls: number; errors: number; durations: number[] }>();
  for (const span of placed) {
    if (span.kind === "model") {
      const key = span.model ?? span.name;
      const m = models.get(key) ?? { calls: 0, inputTokens: 0, outputTokens: 0, durations: [] };
      m.calls++;
      m.inputTokens += span.inputTokens ?? 0;
      m.outputTokens += span.outputTokens ?? 0;
      if (!span.open) m.durations.push(span.durationMs);
      models.set(key, m);
    } else if (span.kind === "tool") {
      const key = span.tool ?? span.name;
      const t = tools.get(key) ?? { calls: 0, errors: 0, durations: [] };
      t.calls++;
      if (span.error !== undefined) t.errors++;
      if (!span.open) t.durations.push(span.durationMs);
      tools.set(key, t);
    }
  }

  const errors = errorList(data.run, data.events, placed, endTs);

  const modelFigures = [...models].map(([model, m]) => ({
    model,
    calls: m.calls,
    inputTokens: m.inputTokens,
    outputTokens: m.outputTokens,
    p50Ms: percentile(m.durations, 0.5),
    maxMs: percentile(m.durations, 1),
  }));
  const toolFigures = [...tools].map(([tool, t]) => ({
    tool,
    calls: t.calls,
    errors: t.errors,
    p50Ms: percentile(t.durations, 0.5),
    p95Ms: percentile(t.durations, 0.95),
    maxMs: percentile(t.durations, 1),
  }));
  return {
    startTs,
    endTs,
    lanes: laneEnds.length + 1,
    spans: placed,
    models: modelFigures,
    tools: toolFigures,
    errors,
    totals: {
      modelCalls: modelFigures.reduce((n, m) => n + m.calls, 0),
      toolCalls: toolFigures.reduce((n, t) => n + t.calls, 0),
      inputTokens: modelFigures.reduce((n, m) => n + m.inputTokens, 0),
      outputTokens: modelFigures.reduce((n, m) => n + m.outputTokens, 0),
      events: data.events.length,
    },
  };
}
