import type { DuckDBAppender, DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { SpanStream, TRACED_EVENTS, type MappedSpan } from "@harnessx/core";
import type { RecordedEvent } from "../format/event.js";
import { traceEventsOf } from "../format/trace-events.js";
import { SPANS_TABLE, type RunFacts } from "./recording-database.js";
import { spanRow } from "./span-rows.js";
import { sqlList } from "./sql-literal.js";

/**
 * The fields the mapping reads, of the event kinds it reads, in the order it must see them: one
 * JSON array text per event, as handing values over from DuckDB one at a time costs more than
 * one JSON.parse of a short string.
 */
const TRACED_ROWS = `SELECT runId, CAST(json_array(seq, ts, kind, spanId, parentSpanId, attrs) AS VARCHAR) AS event FROM raw_events
WHERE kind IN ${sqlList([...TRACED_EVENTS])} ORDER BY runId, seq`;

/** Mapped spans as they end: run, the order the span opened in, its scalar columns as one JSON object, its attributes. */
const MAPPED = "hx_mapped_spans";

/** A staged span's scalars (see `staged`), typed as the `spans` columns. */
const STAGED_TYPES = `'{"traceId":"VARCHAR","spanId":"VARCHAR","parentSpanId":"VARCHAR","kind":"VARCHAR","name":"VARCHAR","start":"BIGINT","end":"BIGINT",
  "duration":"DOUBLE","status":"VARCHAR","input":"BIGINT","output":"BIGINT"}'`;

/** Recorded events per span id: the ones that carry it or hang directly under it. */
const EVENTS_PER_SPAN = "SELECT coalesce(spanId, parentSpanId) AS id, count(*) AS n FROM raw_events WHERE coalesce(spanId, parentSpanId) IS NOT NULL GROUP BY 1";

const FILL_SPANS = `INSERT INTO spans
SELECT m.run_id, m.r.traceId, m.r.spanId, m.r.parentSpanId, m.r.kind, m.r.name, epoch_ms(m.r.start), epoch_ms(m.r."end"), m.r.duration, m.r.status, m.r.input, m.r.output,
  coalesce(c.n, 0), m.attrs
FROM (SELECT run_id, span_ord, json_transform(scalars, ${STAGED_TYPES}) AS r, attrs FROM ${MAPPED}) m
LEFT JOIN (${EVENTS_PER_SPAN}) c ON c.id = m.r.spanId ORDER BY m.run_id, m.span_ord`;

const whole = (value: number | null): number | null => (typeof value === "number" && Number.isFinite(value) ? Math.round(value) : null);

/** Appends one span: its scalars as one JSON text (DuckDB types them back in `FILL_SPANS`), as each appended value costs. */
function staged(appender: DuckDBAppender, runId: string, order: number, span: MappedSpan): void {
  const s = spanRow(runId, span, 0);
  const scalars = {
    traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId, kind: s.kind, name: s.name, start: whole(s.startTs), end: whole(s.endTs),
    duration: s.endTs === null ? null : s.endTs - s.startTs, status: s.status, input: whole(s.inputTokens), output: whole(s.outputTokens),
  };
  appender.appendVarchar(runId);
  appender.appendInteger(order);
  appender.appendVarchar(JSON.stringify(scalars));
  appender.appendVarchar(JSON.stringify(s.attrs));
  appender.endRow();
}

/** One event of `TRACED_ROWS` as the recorder stores it (attributes only: the mapping reads no payload). */
function eventOf(runId: string, text: string): RecordedEvent {
  const [seq, ts, kind, spanId, parentSpanId, attrs] = JSON.parse(text) as [number, number, string, unknown, unknown, unknown];
  return {
    v: 1, runId, seq, ts, kind,
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
 * no list of all the events or spans is ever held in JavaScript.
 */
export async function createSpansTable(instance: DuckDBInstance, connection: DuckDBConnection, runs: ReadonlyMap<string, RunFacts>): Promise<void> {
  await connection.run(SPANS_TABLE);
  await connection.run(`CREATE TABLE ${MAPPED} (run_id VARCHAR, span_ord INTEGER, scalars VARCHAR, attrs VARCHAR)`);
  const writer = await instance.connect();
  try {
    const appender = await writer.createAppender(MAPPED);
    let current: { runId: string; stream: SpanStream; traceId?: string } | undefined;
    const startRun = (runId: string) => {
      current?.stream.end();
      const run = runs.get(runId);
      const stream = new SpanStream({ agent: run ? { name: run.agent, sessionId: run.sessionId } : {}, keepDetail: false }, (span, order) => staged(appender, runId, order, span));
      current = { runId, stream, ...(run?.traceId ? { traceId: run.traceId } : {}) };
    };
    const result = await connection.stream(TRACED_ROWS);
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const runIds = chunk.getColumnVector(0);
      const events = chunk.getColumnValues(1);
      // Rows come ordered by run id: a chunk that starts and ends in one run is all of it, which spares decoding every row's id.
      const oneRun = runIds.getItem(0) === runIds.getItem(chunk.rowCount - 1) ? String(runIds.getItem(0)) : undefined;
      for (let i = 0; i < chunk.rowCount; i++) {
        const runId = oneRun ?? String(runIds.getItem(i));
        if (current?.runId !== runId) startRun(runId);
        for (const traced of traceEventsOf([eventOf(runId, String(events[i]))], { traceId: current!.traceId, attrsOnly: true }).events) current!.stream.push(traced);
      }
    }
    current?.stream.end();
    appender.closeSync();
  } finally {
    writer.closeSync();
  }
  await connection.run(FILL_SPANS);
  await connection.run(`DROP TABLE ${MAPPED}`);
}
