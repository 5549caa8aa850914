import type { DuckDBAppender, DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { SpanStream, TRACED_EVENTS, type MappedSpan } from "@harnessx/core/tracing";
import type { RecordedEvent } from "../format/event.js";
import { TraceEventReader } from "../format/trace-events.js";
import {
  columnList,
  createTableSql,
  declaredColumns,
  typedSelect,
  type ColumnName,
  type TableColumn,
} from "../format/table-columns.js";
import { spanRow } from "./span-rows.js";
import { keepSpanCache, type SpanCacheUse } from "./span-cache.js";
import { sqlList, sqlString } from "./sql-literal.js";

/** What a run's `run.json` tells the span mapping: its trace id, agent and session. */
export interface RunFacts {
  traceId?: string;
  agent: string;
  sessionId: string;
}

/**
 * The fields the mapping reads, of the event kinds it reads, in the order it must see them: one
 * JSON array text per event, as handing values over from DuckDB one at a time costs more than
 * one JSON.parse of a short string.
 */
function tracedRows(cachedRuns: readonly string[]): string {
  const skipCached = cachedRuns.length ? ` AND runId NOT IN (SELECT unnest(${sqlList(cachedRuns)}))` : "";
  return `SELECT runId, CAST(json_array(seq, ts, kind, spanId, parentSpanId, attrs) AS VARCHAR) AS event FROM raw_events
WHERE kind IN ${sqlList([...TRACED_EVENTS])}${skipCached} ORDER BY runId, seq`;
}

/** Mapped spans as they end: run, the order the span opened in, its scalar columns as one JSON object, its attributes. */
const MAPPED = "hx_mapped_spans";

/** The columns a mapped span is staged with as one JSON object (see `staged`): all but the run, the event count and the attributes. */
const NOT_STAGED = ["run_id", "events", "attrs"] as const;
type StagedName = Exclude<ColumnName<"spans">, (typeof NOT_STAGED)[number]>;
const STAGED_COLUMNS = declaredColumns("spans").filter((c) => !(NOT_STAGED as readonly string[]).includes(c.name));

/** The staged object's types: a timestamp is staged as milliseconds since the epoch. */
const STAGED_TYPES = sqlString(
  JSON.stringify(
    Object.fromEntries(STAGED_COLUMNS.map((c) => [c.name, c.type === "TIMESTAMP_MS" ? "BIGINT" : c.type])),
  ),
);

/** Recorded events per span id: the ones that carry it or hang directly under it. */
const EVENTS_PER_SPAN =
  "SELECT coalesce(spanId, parentSpanId) AS id, count(*) AS n FROM raw_events WHERE coalesce(spanId, parentSpanId) IS NOT NULL GROUP BY 1";

/** The columns of `spans` after the run id, in order (the cache files hold them too, with `ord`). */
const COLUMNS = columnList("spans", "trace_id");

/** A staged column's value as its `spans` column: a timestamp from its milliseconds. */
const stagedColumn = (c: TableColumn): string =>
  c.type === "TIMESTAMP_MS" ? `epoch_ms(m.r.${c.name}) AS ${c.name}` : `m.r.${c.name} AS ${c.name}`;

/** The newly mapped spans as `spans` rows, with the order each opened in (`ord`) to sort and cache them by. */
const NEW_SPANS = `CREATE TEMP TABLE hx_new_spans AS
SELECT m.run_id, m.span_ord AS ord, ${STAGED_COLUMNS.map(stagedColumn).join(", ")}, coalesce(c.n, 0) AS events, m.attrs::JSON AS attrs
FROM (SELECT run_id, span_ord, json_transform(scalars, ${STAGED_TYPES}) AS r, attrs FROM ${MAPPED}) m
LEFT JOIN (${EVENTS_PER_SPAN}) c ON c.id = m.r.span_id`;

/** `spans` as a view over cache files: the rows read where they lie, typed as the table, in its order. */
function cachedView(files: readonly string[]): string {
  return `CREATE VIEW spans AS SELECT ${typedSelect("spans", (c) => c.name)} FROM read_parquet(${sqlList(files)}) ORDER BY run_id, ord`;
}

/** Every row into `spans` in the order it always had (by run id, then as the spans opened), cached runs read from their files. */
function fillSpans(cachedFiles: readonly string[]): string {
  const sources = ["hx_new_spans", ...(cachedFiles.length ? [`read_parquet(${sqlList(cachedFiles)})`] : [])];
  const union = sources.map((from) => `SELECT run_id, ord, ${COLUMNS} FROM ${from}`).join(" UNION ALL ");
  return `INSERT INTO spans SELECT run_id, ${COLUMNS} FROM (${union}) ORDER BY run_id, ord`;
}

const whole = (value: number | null): number | null =>
  typeof value === "number" && Number.isFinite(value) ? Math.round(value) : null;

/** Appends one span: its scalars as one JSON text (DuckDB types them back in `NEW_SPANS`), as each appended value costs. */
function staged(appender: DuckDBAppender, runId: string, order: number, span: MappedSpan): void {
  const s = spanRow(runId, span, 0);
  const scalars: Record<StagedName, unknown> = {
    trace_id: s.traceId,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    kind: s.kind,
    name: s.name,
    start_ts: whole(s.startTs),
    end_ts: whole(s.endTs),
    duration_ms: s.endTs === null ? null : s.endTs - s.startTs,
    status: s.status,
    input_tokens: whole(s.inputTokens),
    output_tokens: whole(s.outputTokens),
    cost_usd: s.costUsd,
  };
  appender.appendVarchar(runId);
  appender.appendInteger(order);
  appender.appendVarchar(JSON.stringify(scalars));
  appender.appendVarchar(JSON.stringify(s.attrs));
  appender.endRow();
}

/** One event of `tracedRows` as the recorder stores it (attributes only: the mapping reads no payload). */
function eventOf(runId: string, text: string): RecordedEvent {
  const [seq, ts, kind, spanId, parentSpanId, attrs] = JSON.parse(text) as [
    number,
    number,
    string,
    unknown,
    unknown,
    unknown,
  ];
  return {
    v: 1,
    runId,
    seq,
    ts,
    kind,
    spanId: typeof spanId === "string" ? spanId : null,
    parentSpanId: typeof parentSpanId === "string" ? parentSpanId : null,
    attrs: attrs && typeof attrs === "object" ? (attrs as Record<string, unknown>) : {},
  };
}

/**
 * The `spans` table through core's one mapping, in bounded memory: DuckDB reads the event lines
 * and hands over, a chunk at a time, only the fields and event kinds the mapping reads; each
 * run's events go through a `SpanStream` and every span is staged as soon as it ends (on a second
 * connection, the first being busy streaming). DuckDB then counts each span's events (every kind)
 * and writes the rows in the order `spans` always had (by run id, then as the spans opened), so
 * no list of all the events or spans is ever held in JavaScript. An ended run's rows are read
 * from its span cache when that matches (`span-cache.ts`), and kept there once mapped.
 */
export async function createSpansTable(
  instance: DuckDBInstance,
  connection: DuckDBConnection,
  runs: ReadonlyMap<string, RunFacts>,
  caches: { uses: ReadonlyMap<string, SpanCacheUse>; everyRun: boolean } = { uses: new Map(), everyRun: false },
): Promise<string[]> {
  try {
    return await buildSpansTable(instance, connection, runs, caches);
  } catch (error) {
    if (![...caches.uses.values()].some((use) => "read" in use)) throw error;
    // A cache file DuckDB cannot read as the rows it should hold (damaged, or not ours): map every run, and keep them again.
    for (const drop of [
      "DROP VIEW IF EXISTS spans",
      "DROP TABLE IF EXISTS spans",
      `DROP TABLE IF EXISTS ${MAPPED}`,
      "DROP TABLE IF EXISTS hx_new_spans",
    ])
      await connection.run(drop).catch(() => undefined);
    const rewrite = new Map(
      [...caches.uses].map(([runId, use]): [string, SpanCacheUse] => [runId, { write: use.write }]),
    );
    return buildSpansTable(instance, connection, runs, { uses: rewrite, everyRun: caches.everyRun });
  }
}

/** Makes `spans` a view over the cache files, checked to read as its rows (their schema and count); returns the files. */
async function viewOver(connection: DuckDBConnection, files: string[]): Promise<string[]> {
  await connection.run(cachedView(files));
  await connection.run("SELECT count(*) FROM spans");
  return files;
}

async function buildSpansTable(
  instance: DuckDBInstance,
  connection: DuckDBConnection,
  runs: ReadonlyMap<string, RunFacts>,
  caches: { uses: ReadonlyMap<string, SpanCacheUse>; everyRun: boolean },
): Promise<string[]> {
  const cached = [...caches.uses].flatMap(([runId, use]) => ("read" in use ? [{ runId, file: use.read }] : []));
  // Every run's rows are cached: no event is read at all, and no row is copied into memory.
  if (caches.everyRun && cached.length === caches.uses.size)
    return viewOver(
      connection,
      cached.map((c) => c.file),
    );
  await connection.run(`CREATE TABLE ${MAPPED} (run_id VARCHAR, span_ord INTEGER, scalars VARCHAR, attrs VARCHAR)`);
  const writer = await instance.connect();
  try {
    const appender = await writer.createAppender(MAPPED);
    let current: { runId: string; stream: SpanStream; reader: TraceEventReader } | undefined;
    const startRun = (runId: string) => {
      current?.stream.end();
      const run = runs.get(runId);
      const stream = new SpanStream(
        { agent: run ? { name: run.agent, sessionId: run.sessionId } : {}, keepDetail: false },
        (span, order) => staged(appender, runId, order, span),
      );
      current = {
        runId,
        stream,
        reader: new TraceEventReader({ ...(run?.traceId ? { traceId: run.traceId } : {}), attrsOnly: true }),
      };
    };
    const result = await connection.stream(tracedRows(cached.map((c) => c.runId)));
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const runIds = chunk.getColumnVector(0);
      const events = chunk.getColumnValues(1);
      // Rows come ordered by run id: a chunk that starts and ends in one run is all of it, which spares decoding every row's id.
      const oneRun = runIds.getItem(0) === runIds.getItem(chunk.rowCount - 1) ? String(runIds.getItem(0)) : undefined;
      for (let i = 0; i < chunk.rowCount; i++) {
        const runId = oneRun ?? String(runIds.getItem(i));
        if (current?.runId !== runId) startRun(runId);
        const traced = current!.reader.read(eventOf(runId, String(events[i])));
        if (traced) current!.stream.push(traced);
      }
    }
    current?.stream.end();
    appender.closeSync();
  } finally {
    writer.closeSync();
  }
  await connection.run(NEW_SPANS);
  await connection.run(`DROP TABLE ${MAPPED}`);
  const files = cached.map((c) => c.file);
  for (const [runId, use] of caches.uses) {
    if ("read" in use) continue;
    const copy = (path: string) =>
      connection.run(
        `COPY (SELECT run_id, ord, ${COLUMNS} FROM hx_new_spans WHERE run_id = ${sqlString(runId)} ORDER BY ord) TO ${sqlString(path)} (FORMAT parquet, COMPRESSION zstd)`,
      );
    if (await keepSpanCache(use.write, async (path) => void (await copy(path)))) files.push(use.write.file);
  }
  if (caches.everyRun && files.length === caches.uses.size) {
    // Every run's rows are now in the cache: the table is read from there, and the mapped copy freed.
    await connection.run("DROP TABLE hx_new_spans");
    return viewOver(connection, files);
  }
  await connection.run(createTableSql("spans"));
  await connection.run(fillSpans(cached.map((c) => c.file)));
  await connection.run("DROP TABLE hx_new_spans");
  return [];
}
