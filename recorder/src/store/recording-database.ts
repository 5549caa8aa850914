import type { DuckDBAppender, DuckDBConnection, DuckDBInstance, DuckDBValue, Json } from "@duckdb/node-api";
import { loadedDuckdb, memoryDatabase } from "./duckdb.js";
import type { RecordedEvent } from "../format/event.js";
import { artifactRefsOf } from "./references.js";
import { lockToReading } from "./read-only.js";
import { spanRows, type SpanRow } from "./span-rows.js";

/** Size of an artifact where the caller knows it (store file or bundle member). */
export type StoredSizeOf = (sha256: string) => number | undefined;

const SCHEMA = `
CREATE TABLE events (
  run_id VARCHAR, seq BIGINT, ts TIMESTAMP_MS, ts_ms BIGINT, kind VARCHAR,
  span_id VARCHAR, parent_span_id VARCHAR, tool_name VARCHAR, tool_call_id VARCHAR,
  attrs JSON, payload JSON, payload_sha256 VARCHAR, payload_bytes BIGINT, payload_preview VARCHAR, redacted JSON
);
CREATE TABLE artifacts (
  sha256 VARCHAR, run_id VARCHAR, seq BIGINT, kind VARCHAR, bytes BIGINT, stored_bytes BIGINT, present BOOLEAN, preview VARCHAR
);`;

export function appendRow(appender: DuckDBAppender, values: readonly DuckDBValue[]): void {
  for (const value of values) {
    if (value === null || value === undefined) appender.appendNull();
    else if (typeof value === "string") appender.appendVarchar(value);
    else if (typeof value === "boolean") appender.appendBoolean(value);
    else if (typeof value === "bigint") appender.appendBigInt(value);
    else if (typeof value === "number") appender.appendDouble(value);
    else appender.appendValue(value);
  }
  appender.endRow();
}

/** A TIMESTAMP_MS value from milliseconds since the epoch (NULL when not a number). */
export const msValue = (value: number | null | undefined): DuckDBValue =>
  typeof value === "number" && Number.isFinite(value)
    ? loadedDuckdb().timestampMillisValue(BigInt(Math.round(value)))
    : null;
/** A BIGINT value (NULL when not a number). */
export const bigValue = (value: unknown): DuckDBValue =>
  typeof value === "number" && Number.isFinite(value) ? BigInt(Math.round(value)) : null;
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
/** A JSON column's text (NULL when undefined). */
export const jsonValue = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
const ms = msValue;
const big = bigValue;
const json = jsonValue;

/**
 * Recorded events as DuckDB tables (in memory) for SQL. Columns are documented in
 * recorder/README.md: `events` (one row per event), `spans` (run, model-call and tool-call
 * spans rebuilt from the events), `artifacts` (every artifact the events reference).
 */
export class RecordingDatabase {
  private constructor(
    private readonly instance: DuckDBInstance,
    /** The connection `query` uses, for `@duckdb/node-api`'s own methods (appenders, prepared statements). */
    readonly connection: DuckDBConnection,
  ) {}

  /** Loads events (any runs) into a fresh in-memory database; with `readOnly`, SQL can then read the tables and nothing else. */
  static async fromEvents(
    events: Iterable<RecordedEvent>,
    storedSizeOf: StoredSizeOf = () => undefined,
    options: { readOnly?: boolean; runs?: ReadonlyMap<string, RunFacts> } = {},
  ): Promise<RecordingDatabase> {
    const instance = await memoryDatabase();
    const connection = await instance.connect();
    await connection.run(SCHEMA);
    await connection.run(SPANS_TABLE);
    const db = new RecordingDatabase(instance, connection);
    const all = Array.isArray(events) ? (events as RecordedEvent[]) : [...events];
    await db.load(all, storedSizeOf);
    await appendSpans(connection, spanRows(all, options.runs ?? new Map()));
    if (options.readOnly) await lockToReading(connection);
    return db;
  }

  /** Runs SQL and returns rows as JSON-friendly objects (BIGINT as number when safe, timestamps as strings). */
  async query(sql: string, params?: DuckDBValue[] | Record<string, DuckDBValue>): Promise<Array<Record<string, Json>>> {
    const reader = await this.connection.runAndReadAll(sql, params);
    return reader.getRowObjectsJson();
  }

  /** Closes the connection and frees the in-memory database. */
  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }

  private async load(events: RecordedEvent[], storedSizeOf: StoredSizeOf): Promise<void> {
    const appender = await this.connection.createAppender("events");
    const artifacts = await this.connection.createAppender("artifacts");
    for (const e of events) {
      const attrs = e.attrs ?? {};
      appendRow(appender, [
        e.runId,
        big(e.seq),
        ms(e.ts),
        big(e.ts),
        e.kind,
        e.spanId ?? null,
        e.parentSpanId ?? null,
        str(attrs.toolName),
        str(attrs.toolCallId),
        json(attrs),
        json(e.payload),
        e.payloadRef?.sha256 ?? null,
        big(e.payloadRef?.bytes),
        e.payloadRef?.preview ?? null,
        json(e.redacted),
      ]);
      if (e.payloadRef) {
        const stored = storedSizeOf(e.payloadRef.sha256);
        appendRow(artifacts, [
          e.payloadRef.sha256,
          e.runId,
          big(e.seq),
          "payload",
          big(e.payloadRef.bytes),
          big(stored),
          stored !== undefined,
          e.payloadRef.preview,
        ]);
      }
      for (const ref of artifactRefsOf(attrs)) {
        const stored = storedSizeOf(ref.sha256);
        // A reference from before typed references knows its size only from the spill event's data.
        const bytes =
          ref.bytes >= 0 ? ref.bytes : (e.payload as { data?: { bytes?: unknown } } | undefined)?.data?.bytes;
        appendRow(artifacts, [
          ref.sha256,
          e.runId,
          big(e.seq),
          "extension",
          big(bytes),
          big(stored),
          stored !== undefined,
          null,
        ]);
      }
    }
    appender.closeSync();
    artifacts.closeSync();
  }
}

/** What a run's `run.json` tells the span mapping: its trace id, agent and session. */
export interface RunFacts {
  traceId?: string;
  agent: string;
  sessionId: string;
}

export const SPANS_TABLE = `CREATE TABLE spans (
  run_id VARCHAR, trace_id VARCHAR, span_id VARCHAR, parent_span_id VARCHAR, kind VARCHAR, name VARCHAR,
  start_ts TIMESTAMP_MS, end_ts TIMESTAMP_MS, duration_ms DOUBLE, status VARCHAR,
  input_tokens BIGINT, output_tokens BIGINT, cost_usd DOUBLE, events BIGINT, attrs JSON
)`;

/** Fills the `spans` table (both readers' tables come from the one mapping). */
export async function appendSpans(connection: DuckDBConnection, rows: readonly SpanRow[]): Promise<void> {
  const spans = await connection.createAppender("spans");
  for (const s of rows) appendRow(spans, spanValues(s));
  spans.closeSync();
}

/** A span row's values in the `spans` table's column order. */
export function spanValues(s: SpanRow): DuckDBValue[] {
  return [
    s.runId,
    s.traceId,
    s.spanId,
    s.parentSpanId,
    s.kind,
    s.name,
    ms(s.startTs),
    ms(s.endTs),
    s.endTs === null ? null : s.endTs - s.startTs,
    s.status,
    big(s.inputTokens),
    big(s.outputTokens),
    s.costUsd,
    big(s.events),
    json(s.attrs),
  ];
}
