import type { RecordedEvent } from "@harnessx/recorder";
import { quantile } from "../output/format.js";
import type { LoadedRun } from "../store/load.js";

/** What `trace summary` prints, also its `--json` shape. */
export interface RunSummaryReport {
  runId: string;
  agent: string;
  source: string;
  status: string;
  error: { name?: string; message: string; code?: string } | null;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  events: number;
  kinds: Array<{ kind: string; count: number; bytes: number }>;
  models: Array<{ model: string; calls: number; inputTokens: number; outputTokens: number }>;
  tools: Array<{ tool: string; calls: number; errors: number; p50Ms: number | null; p95Ms: number | null; maxMs: number | null }>;
  spills: { count: number; bytes: number };
  dropped: { events: number; gaps: number };
  redaction: unknown;
  redactedValues: number;
  tornBytes: number;
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** Counts, bytes, tokens and latencies of one run, in one pass over its events. */
export function summarizeRun(loaded: LoadedRun): RunSummaryReport {
  const { run, events } = loaded;
  const kinds = new Map<string, { count: number; bytes: number }>();
  const models = new Map<string, { calls: number; inputTokens: number; outputTokens: number }>();
  const tools = new Map<string, { calls: number; errors: number; durations: number[] }>();
  let spills = 0;
  let spillBytes = 0;
  let dropped = 0;
  let gaps = 0;
  let redactedValues = 0;
  for (const event of events as RecordedEvent[]) {
    const a = event.attrs ?? {};
    const k = kinds.get(event.kind) ?? { count: 0, bytes: 0 };
    k.count++;
    k.bytes += Buffer.byteLength(JSON.stringify(event)) + 1 + (event.payloadRef?.bytes ?? 0);
    kinds.set(event.kind, k);
    redactedValues += event.redacted?.length ?? 0;
    if (event.kind === "llm_response") {
      const model = String(a.model ?? "unknown");
      const m = models.get(model) ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
      m.calls++;
      m.inputTokens += num(a.inputTokens);
      m.outputTokens += num(a.outputTokens);
      models.set(model, m);
    } else if (event.kind === "tool_call_end") {
      const tool = String(a.toolName ?? "unknown");
      const t = tools.get(tool) ?? { calls: 0, errors: 0, durations: [] };
      t.calls++;
      if (a.isError === true || (a.outcome !== undefined && a.outcome !== "executed")) t.errors++;
      if (typeof a.durationMs === "number") t.durations.push(a.durationMs);
      tools.set(tool, t);
    } else if (event.kind === "custom" && a.name === "spill") {
      spills++;
      const data = (event.payload as { data?: { bytes?: unknown } } | undefined)?.data;
      spillBytes += num(data?.bytes);
    } else if (event.kind === "recorder.dropped") {
      dropped += num(a.count);
      gaps++;
    }
  }
  const error = run.error ? { name: run.error.name, message: run.error.message, code: run.error.code } : null;
  return {
    runId: run.runId,
    agent: run.agent,
    source: loaded.target.kind === "bundle" ? loaded.target.path : loaded.target.runDir,
    status: run.status,
    error,
    startedAt: new Date(run.startedAt).toISOString(),
    endedAt: run.endedAt === null || run.endedAt === undefined ? null : new Date(run.endedAt).toISOString(),
    durationMs: run.endedAt === null || run.endedAt === undefined ? null : run.endedAt - run.startedAt,
    events: events.length,
    kinds: [...kinds].map(([kind, v]) => ({ kind, ...v })).sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind)),
    models: [...models].map(([model, v]) => ({ model, ...v })),
    tools: [...tools]
      .map(([tool, t]) => {
        const sorted = t.durations.sort((x, y) => x - y);
        return { tool, calls: t.calls, errors: t.errors, p50Ms: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95), maxMs: quantile(sorted, 1) };
      })
      .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool)),
    spills: { count: spills, bytes: spillBytes },
    dropped: { events: dropped, gaps },
    redaction: run.redaction ?? "unknown",
    redactedValues,
    tornBytes: loaded.tornBytes,
  };
}
