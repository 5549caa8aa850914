import type { ExtensionSummary } from "@harnessx/core";
import type { RunManifest } from "@harnessx/recorder";
import type { RecordingTables } from "@harnessx/recorder";

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
  /** Events per kind; `bytes` counts each event's line plus its payload stored aside. */
  kinds: Array<{ kind: string; count: number; bytes: number }>;
  models: Array<{ model: string; calls: number; inputTokens: number; outputTokens: number }>;
  tools: Array<{ tool: string; calls: number; errors: number; p50Ms: number | null; p95Ms: number | null; maxMs: number | null }>;
  spills: { count: number; bytes: number };
  dropped: { events: number; gaps: number };
  redaction: unknown;
  /** Values the recorder redacted (paths listed on the events). */
  redactedValues: number;
  /** The run's extensions with their trust level, source and contributed ids (from run.json). */
  extensions: ExtensionSummary[];
}

/** Bytes of the event lines by kind, from the raw text. */
const LINE_BYTES_BY_KIND = `SELECT regexp_extract(line, '"kind":"([^"]*)"', 1) AS kind, sum(strlen(line) + 1) AS bytes FROM lines GROUP BY 1`;

/** The other figures aggregate typed fields, read once into a compact table. */
const FACTS = `CREATE TEMP TABLE facts AS
SELECT kind, attrs.toolName AS tool, attrs.model AS model, attrs.outcome AS outcome, attrs.isError AS is_error, attrs.durationMs AS duration_ms,
  attrs.inputTokens AS input_tokens, attrs.outputTokens AS output_tokens, attrs.name AS custom_name, payload.data.bytes AS spill_bytes,
  attrs.count AS dropped, coalesce(len(redacted), 0) AS redacted, payloadRef.bytes AS payload_bytes
FROM typed_events`;

const num = (v: unknown): number => (typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : 0);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));

async function all(tables: RecordingTables, sql: string): Promise<Array<Record<string, unknown>>> {
  return (await tables.connection.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>;
}

/** Counts, bytes, tokens and latencies of one run, computed by DuckDB over its event lines. */
export async function summarizeRun(tables: RecordingTables, run: RunManifest, source: string): Promise<RunSummaryReport> {
  const lineBytes = new Map((await all(tables, LINE_BYTES_BY_KIND)).map((r) => [String(r.kind), num(r.bytes)]));
  await tables.connection.run(FACTS);
  const kinds = await all(tables, "SELECT kind, count(*) AS count, coalesce(sum(payload_bytes), 0) AS payload_bytes FROM facts GROUP BY kind ORDER BY count DESC, kind");
  const models = await all(tables, "SELECT coalesce(model, 'unknown') AS model, count(*) AS calls, sum(input_tokens) AS input, sum(output_tokens) AS output FROM facts WHERE kind = 'llm_response' GROUP BY 1 ORDER BY calls DESC, model");
  const tools = await all(
    tables,
    `SELECT coalesce(tool, 'unknown') AS tool, count(*) AS calls, count(*) FILTER (WHERE is_error OR (outcome IS NOT NULL AND outcome <> 'executed')) AS errors,
       quantile_disc(duration_ms, 0.5) AS p50, quantile_disc(duration_ms, 0.95) AS p95, max(duration_ms) AS max
     FROM facts WHERE kind = 'tool_call_end' GROUP BY 1 ORDER BY calls DESC, tool`,
  );
  const [totals] = await all(
    tables,
    `SELECT count(*) AS events, count(*) FILTER (WHERE kind = 'custom' AND custom_name = 'spill') AS spills,
       coalesce(sum(spill_bytes) FILTER (WHERE kind = 'custom' AND custom_name = 'spill'), 0) AS spill_bytes,
       coalesce(sum(dropped) FILTER (WHERE kind = 'recorder.dropped'), 0) AS dropped, count(*) FILTER (WHERE kind = 'recorder.dropped') AS gaps,
       coalesce(sum(redacted), 0) AS redacted
     FROM facts`,
  );
  const ended = run.endedAt !== null && run.endedAt !== undefined;
  return {
    runId: run.runId,
    agent: run.agent,
    source,
    status: run.status,
    error: run.error ? { name: run.error.name, message: run.error.message, code: run.error.code } : null,
    startedAt: new Date(run.startedAt).toISOString(),
    endedAt: ended ? new Date(run.endedAt as number).toISOString() : null,
    durationMs: ended ? (run.endedAt as number) - run.startedAt : null,
    events: num(totals.events),
    kinds: kinds.map((k) => ({ kind: String(k.kind), count: num(k.count), bytes: (lineBytes.get(String(k.kind)) ?? 0) + num(k.payload_bytes) })),
    models: models.map((m) => ({ model: String(m.model), calls: num(m.calls), inputTokens: num(m.input), outputTokens: num(m.output) })),
    tools: tools.map((t) => ({ tool: String(t.tool), calls: num(t.calls), errors: num(t.errors), p50Ms: numOrNull(t.p50), p95Ms: numOrNull(t.p95), maxMs: numOrNull(t.max) })),
    spills: { count: num(totals.spills), bytes: num(totals.spill_bytes) },
    dropped: { events: num(totals.dropped), gaps: num(totals.gaps) },
    redaction: run.redaction ?? "unknown",
    redactedValues: num(totals.redacted),
    extensions: run.extensions ?? [],
  };
}
