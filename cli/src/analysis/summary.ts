import type { ExtensionSummary } from "@harnessx/core";
import { costOfModels, LatencySketch, nanoDollars, toolCostShares, type ModelsCost, type RecordingTables, type RunManifest, type RunRollup } from "@harnessx/recorder";

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
  models: Array<{ model: string; calls: number; inputTokens: number; outputTokens: number; cacheReadTokens: number | null; cacheWriteTokens: number | null; costUsd: number | null; unpricedCalls: number }>;
  /** The run's prompt cache: tokens read and written, and the hit rate (read / input tokens; null when no reply reported its cache). */
  cache: CacheFigures;
  /** The run's model calls together: the priced calls' cost, and how many had no price (the total is then a lower bound). */
  cost: ModelsCost;
  /**
   * Per tool; the percentiles are within 1% (`LatencySketch`), the maximum exact. `costUsd`: what
   * the model calls that asked for the tool cost, each reply's cost shared among its tool calls
   * (null when none was priced).
   */
  tools: Array<{ tool: string; calls: number; errors: number; p50Ms: number | null; p95Ms: number | null; maxMs: number | null; costUsd: number | null }>;
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
export function cacheFigures(models: ReadonlyArray<Pick<RunSummaryReport["models"][number], "inputTokens" | "cacheReadTokens" | "cacheWriteTokens">>): CacheFigures {
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

/** Bytes of the event lines by kind, from the raw text. */
const LINE_BYTES_BY_KIND = `SELECT regexp_extract(line, '"kind":"([^"]*)"', 1) AS kind, sum(strlen(line) + 1) AS bytes FROM lines GROUP BY 1`;

/** The other figures aggregate typed fields, read once into a compact table. */
const FACTS = `CREATE TEMP TABLE facts AS
SELECT kind, attrs.toolName AS tool, attrs.model AS model, attrs.outcome AS outcome, attrs.isError AS is_error, attrs.durationMs AS duration_ms,
  attrs.inputTokens AS input_tokens, attrs.outputTokens AS output_tokens, attrs.cacheReadTokens AS cache_read, attrs.cacheWriteTokens AS cache_write, attrs.cost.usd AS cost_usd, attrs.toolCalls AS tool_calls, attrs.name AS custom_name, payload.data.bytes AS spill_bytes,
  attrs.count AS dropped, coalesce(len(redacted), 0) AS redacted, payloadRef.bytes AS payload_bytes
FROM typed_events`;

const num = (v: unknown): number => (typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : 0);

async function all(tables: RecordingTables, sql: string): Promise<Array<Record<string, unknown>>> {
  return (await tables.connection.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>;
}

/** True when `trace summary` may read the run's `rollup` instead of its events: an ended run of a store (a bundle's run.json is only a claim about its events). */
export function hasTrustedRollup(run: RunManifest, fromBundle: boolean): run is RunManifest & { rollup: RunRollup } {
  return !fromBundle && run.rollup !== undefined && run.endedAt !== null && run.endedAt !== undefined && run.status !== "running";
}

/** The figures of an ended run from its `run.json` alone (what the recorder rolled up as it recorded). */
export function summarizeFromRollup(run: RunManifest & { rollup: RunRollup }, source: string): RunSummaryReport {
  const { rollup } = run;
  const summary = run.summary;
  const byKind = summary?.byKind ?? {};
  const kinds = Object.keys({ ...byKind, ...rollup.bytesByKind }).map((kind) => ({ kind, count: byKind[kind] ?? 0, bytes: rollup.bytesByKind[kind] ?? 0 }));
  return report(run, source, {
    events: summary?.events ?? 0,
    kinds,
    // A rollup written before cost was recorded knows no price: every call counts as unpriced.
    models: Object.entries(rollup.models).map(([model, m]) => ({
      model,
      calls: m.calls,
      inputTokens: m.inputTokens,
      outputTokens: m.outputTokens,
      cacheReadTokens: m.cacheReadTokens ?? null,
      cacheWriteTokens: m.cacheWriteTokens ?? null,
      costUsd: m.costUsd ?? null,
      unpricedCalls: costOfModels([m]).unpricedCalls,
    })),
    // A tool a reply asked for is listed once a call of it finished, as when the events are read.
    tools: Object.entries(rollup.tools).filter(([, t]) => t.calls > 0).map(([tool, t]) => ({ tool, calls: t.calls, errors: t.errors, latency: LatencySketch.from(t.latency), costUsd: t.costUsd ?? null })),
    spills: { ...rollup.spills },
    dropped: { events: summary?.dropped ?? 0, gaps: byKind["recorder.dropped"] ?? 0 },
    redactedValues: rollup.redactedValues,
  });
}

/** Counts, bytes, tokens and latencies of one run, computed by DuckDB over its event lines. */
export async function summarizeRun(tables: RecordingTables, run: RunManifest, source: string): Promise<RunSummaryReport> {
  const lineBytes = new Map((await all(tables, LINE_BYTES_BY_KIND)).map((r) => [String(r.kind), num(r.bytes)]));
  await tables.connection.run(FACTS);
  const kinds = await all(tables, "SELECT kind, count(*) AS count, coalesce(sum(payload_bytes), 0) AS payload_bytes FROM facts GROUP BY kind");
  const models = await all(
    tables,
    `SELECT coalesce(model, 'unknown') AS model, count(*) AS calls, sum(input_tokens) AS input, sum(output_tokens) AS output, sum(cache_read) AS cache_read, sum(cache_write) AS cache_write,
       sum(cost_usd) AS cost, count(*) FILTER (WHERE cost_usd IS NULL) AS unpriced FROM facts WHERE kind = 'llm_response' GROUP BY 1`,
  );
  const tools = await all(
    tables,
    `SELECT coalesce(tool, 'unknown') AS tool, count(*) AS calls, count(*) FILTER (WHERE is_error OR (outcome IS NOT NULL AND outcome <> 'executed')) AS errors,
       list(duration_ms) FILTER (WHERE duration_ms IS NOT NULL) AS durations
     FROM facts WHERE kind = 'tool_call_end' GROUP BY 1`,
  );
  const toolCosts = new Map<string, number | null>();
  for (const r of await all(tables, "SELECT tool_calls, cost_usd FROM facts WHERE kind = 'llm_response' AND tool_calls IS NOT NULL")) {
    for (const [tool, share] of toolCostShares({ toolCalls: r.tool_calls, cost: { usd: r.cost_usd } })) {
      toolCosts.set(tool, share === null ? (toolCosts.get(tool) ?? null) : (toolCosts.get(tool) ?? 0) + share);
    }
  }
  const [totals] = await all(
    tables,
    `SELECT count(*) AS events, count(*) FILTER (WHERE kind = 'custom' AND custom_name = 'spill') AS spills,
       coalesce(sum(spill_bytes) FILTER (WHERE kind = 'custom' AND custom_name = 'spill'), 0) AS spill_bytes,
       coalesce(sum(dropped) FILTER (WHERE kind = 'recorder.dropped'), 0) AS dropped, count(*) FILTER (WHERE kind = 'recorder.dropped') AS gaps,
       coalesce(sum(redacted), 0) AS redacted
     FROM facts`,
  );
  const sketchOf = (durations: unknown): LatencySketch => {
    const sketch = new LatencySketch();
    for (const d of Array.isArray(durations) ? durations : []) sketch.add(num(d));
    return sketch;
  };
  return report(run, source, {
    events: num(totals.events),
    kinds: kinds.map((k) => ({ kind: String(k.kind), count: num(k.count), bytes: (lineBytes.get(String(k.kind)) ?? 0) + num(k.payload_bytes) })),
    models: models.map((m) => ({
      model: String(m.model),
      calls: num(m.calls),
      inputTokens: num(m.input),
      outputTokens: num(m.output),
      // A sum over replies none of which reported the cache is NULL: not reported, not 0.
      cacheReadTokens: m.cache_read === null ? null : num(m.cache_read),
      cacheWriteTokens: m.cache_write === null ? null : num(m.cache_write),
      costUsd: m.cost === null ? null : num(m.cost),
      unpricedCalls: num(m.unpriced),
    })),
    tools: tools.map((t) => ({ tool: String(t.tool), calls: num(t.calls), errors: num(t.errors), latency: sketchOf(t.durations), costUsd: toolCosts.get(String(t.tool)) ?? null })),
    spills: { count: num(totals.spills), bytes: num(totals.spill_bytes) },
    dropped: { events: num(totals.dropped), gaps: num(totals.gaps) },
    redactedValues: num(totals.redacted),
  });
}

/** The figures both ways of summarizing produce, before ordering and percentiles. */
interface Figures {
  events: number;
  kinds: RunSummaryReport["kinds"];
  models: RunSummaryReport["models"];
  tools: Array<{ tool: string; calls: number; errors: number; latency: LatencySketch; costUsd: number | null }>;
  spills: RunSummaryReport["spills"];
  dropped: RunSummaryReport["dropped"];
  redactedValues: number;
}

/** Most first, then by name. */
const byCountThenName = <T>(count: (x: T) => number, name: (x: T) => string) => (a: T, b: T): number => count(b) - count(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

/** One rule for ordering and percentiles (the latency sketch's, within 1%), whichever way the figures came. */
function report(run: RunManifest, source: string, f: Figures): RunSummaryReport {
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
    kinds: f.kinds.sort(byCountThenName((k) => k.count, (k) => k.kind)),
    models: f.models.map((m) => ({ ...m, costUsd: nanoDollars(m.costUsd) })).sort(byCountThenName((m) => m.calls, (m) => m.model)),
    cost: costOfModels(f.models),
    cache: cacheFigures(f.models),
    tools: f.tools
      .sort(byCountThenName((t) => t.calls, (t) => t.tool))
      .map((t) => ({ tool: t.tool, calls: t.calls, errors: t.errors, p50Ms: t.latency.quantile(0.5), p95Ms: t.latency.quantile(0.95), maxMs: t.latency.largest, costUsd: nanoDollars(t.costUsd) })),
    spills: f.spills,
    dropped: f.dropped,
    redaction: run.redaction ?? "unknown",
    redactedValues: f.redactedValues,
    extensions: run.extensions ?? [],
  };
}
