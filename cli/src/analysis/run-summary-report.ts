import type { ExtensionSummary } from "@harnessx/core/extension";
import { costOfModels, nanoDollars, type LatencySketch, type ModelsCost, type RunManifest } from "@harnessx/recorder";
import type { ToolFigures } from "../report/model.js";

/** What `trace summary` prints, also its `--json` shape. */
export interface RunSummaryReport {
  runId: string;
  agent: string;
  /** The framework that made the run (`ai-sdk`, `openai-agents`); null for harnessx's own runs. */
  framework: string | null;
  source: string;
  status: string;
  error: { name?: string; message: string; code?: string } | null;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  events: number;
  /** Events per kind; `bytes` counts each event's line plus its payload stored aside. */
  kinds: Array<{ kind: string; count: number; bytes: number }>;
  /**
   * Per model; `costUsd` sums the priced calls (null when none was), `unpricedCalls` counts the
   * others; the cache figures are the input tokens read from and written to the prompt cache (null
   * when no reply of the model reported them).
   */
  models: Array<{
    model: string;
    calls: number;
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number | null;
    cacheWriteTokens: number | null;
    costUsd: number | null;
    unpricedCalls: number;
  }>;
  /** The run's prompt cache: tokens read and written, and the hit rate (read / input tokens; null when no reply reported its cache). */
  cache: CacheFigures;
  /** The run's model calls together: the priced calls' cost, and how many had no price (the total is then a lower bound). */
  cost: ModelsCost;
  /**
   * Per tool; the percentiles are within 1% (`LatencySketch`), the maximum exact. `costUsd`: what
   * the model calls that asked for the tool cost, each reply's cost shared among its tool calls
   * (null when none was priced).
   */
  tools: Array<ToolFigures & { costUsd: number | null }>;
  spills: { count: number; bytes: number };
  dropped: { events: number; gaps: number };
  redaction: unknown;
  /** Values the recorder redacted (paths listed on the events). */
  redactedValues: number;
  /** The run's extensions with their trust level, source and contributed ids (from run.json). */
  extensions: ExtensionSummary[];
}

/** A run's prompt-cache figures (`trace summary`). */
export interface CacheFigures {
  /** Input tokens read from the prompt cache, summed over the replies that reported it. */
  readTokens: number;
  /** Input tokens written to the prompt cache, summed over the replies that reported it. */
  writeTokens: number;
  /** Cache-read tokens over all input tokens of the run, 0 to 1; null when no reply reported cache figures (or no input). */
  hitRate: number | null;
}

/** The one rule of a run's cache hit rate: cache-read tokens over input tokens, from the per-model figures. */
export function cacheFigures(
  models: ReadonlyArray<
    Pick<RunSummaryReport["models"][number], "inputTokens" | "cacheReadTokens" | "cacheWriteTokens">
  >,
): CacheFigures {
  let input = 0;
  let read: number | null = null;
  let write = 0;
  for (const m of models) {
    input += m.inputTokens;
    if (m.cacheReadTokens !== null) read = (read ?? 0) + m.cacheReadTokens;
    write += m.cacheWriteTokens ?? 0;
  }
  return { readTokens: read ?? 0, writeTokens: write, hitRate: read === null || input === 0 ? null : read / input };
}

/** The figures both ways of summarizing produce, before ordering and percentiles. */
export interface SummaryFigures {
  events: number;
  kinds: RunSummaryReport["kinds"];
  models: RunSummaryReport["models"];
  tools: Array<{ tool: string; calls: number; errors: number; latency: LatencySketch; costUsd: number | null }>;
  spills: RunSummaryReport["spills"];
  dropped: RunSummaryReport["dropped"];
  redactedValues: number;
}

/** Most first, then by name. */
const byCountThenName =
  <T>(count: (x: T) => number, name: (x: T) => string) =>
  (a: T, b: T): number =>
    count(b) - count(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

/** One rule for ordering and percentiles (the latency sketch's, within 1%), whichever way the figures came. */
export function summaryReport(run: RunManifest, source: string, f: SummaryFigures): RunSummaryReport {
  const ended = run.endedAt !== null && run.endedAt !== undefined;
  return {
    runId: run.runId,
    agent: run.agent,
    framework: run.framework ?? null,
    source,
    status: run.status,
    error: run.error ? { name: run.error.name, message: run.error.message, code: run.error.code } : null,
    startedAt: new Date(run.startedAt).toISOString(),
    endedAt: ended ? new Date(run.endedAt as number).toISOString() : null,
    durationMs: ended ? (run.endedAt as number) - run.startedAt : null,
    events: f.events,
    kinds: f.kinds.sort(
      byCountThenName(
        (k) => k.count,
        (k) => k.kind,
      ),
    ),
    models: f.models
      .map((m) => ({ ...m, costUsd: nanoDollars(m.costUsd) }))
      .sort(
        byCountThenName(
          (m) => m.calls,
          (m) => m.model,
        ),
      ),
    cost: costOfModels(f.models),
    cache: cacheFigures(f.models),
    tools: f.tools
      .sort(
        byCountThenName(
          (t) => t.calls,
          (t) => t.tool,
        ),
      )
      .map((t) => ({
        tool: t.tool,
        calls: t.calls,
        errors: t.errors,
        p50Ms: t.latency.quantile(0.5),
        p95Ms: t.latency.quantile(0.95),
        maxMs: t.latency.largest,
        costUsd: nanoDollars(t.costUsd),
      })),
    spills: f.spills,
    dropped: f.dropped,
    redaction: run.redaction ?? "unknown",
    redactedValues: f.redactedValues,
    extensions: run.extensions ?? [],
  };
}
