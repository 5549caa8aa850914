import { LatencySketch, toolCostShares, type RecordingTables, type RunManifest } from "@harnessx/recorder";
import { summaryReport, type RunSummaryReport } from "./run-summary-report.js";

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

/** Counts, bytes, tokens and latencies of one run, computed by DuckDB over its event lines. */
export async function summarizeRun(
  tables: RecordingTables,
  run: RunManifest,
  source: string,
): Promise<RunSummaryReport> {
  const lineBytes = new Map((await all(tables, LINE_BYTES_BY_KIND)).map((r) => [String(r.kind), num(r.bytes)]));
  await tables.connection.run(FACTS);
  const kinds = await all(
    tables,
    "SELECT kind, count(*) AS count, coalesce(sum(payload_bytes), 0) AS payload_bytes FROM facts GROUP BY kind",
  );
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
  for (const r of await all(
    tables,
    "SELECT tool_calls, cost_usd FROM facts WHERE kind = 'llm_response' AND tool_calls IS NOT NULL",
  )) {
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
  return summaryReport(run, source, {
    events: num(totals.events),
    kinds: kinds.map((k) => ({
      kind: String(k.kind),
      count: num(k.count),
      bytes: (lineBytes.get(String(k.kind)) ?? 0) + num(k.payload_bytes),
    })),
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
    tools: tools.map((t) => ({
      tool: String(t.tool),
      calls: num(t.calls),
      errors: num(t.errors),
      latency: sketchOf(t.durations),
      costUsd: toolCosts.get(String(t.tool)) ?? null,
    })),
    spills: { count: num(totals.spills), bytes: num(totals.spill_bytes) },
    dropped: { events: num(totals.dropped), gaps: num(totals.gaps) },
    redactedValues: num(totals.redacted),
  });
}
