import { promises as fs } from "node:fs";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { ArtifactStore } from "@harnessx/artifacts";
import type { RecordedEvent } from "../format/event.js";
import { listSegments, verifySealedSegment } from "./read-run.js";
import { lockToReading } from "./read-only.js";
import { appendSpans, SPANS_TABLE, type RunFacts } from "./recording-database.js";
import { readRunManifest } from "./run-manifest.js";
import { spanRows } from "./span-rows.js";
import { sqlList } from "./sql-literal.js";

/** DuckDB tables over recorded runs; close when done. */
export interface RecordingTables {
  readonly connection: DuckDBConnection;
  close(): void;
}

/** The fields summaries aggregate, typed; DuckDB's JSON reader parses each line once. */
export const TYPED_EVENT_COLUMNS = `{'kind': 'VARCHAR', 'payloadRef': 'STRUCT(bytes BIGINT)', 'redacted': 'VARCHAR[]', 'payload': 'STRUCT(data STRUCT(bytes BIGINT))',
  'attrs': 'STRUCT(toolName VARCHAR, model VARCHAR, outcome VARCHAR, isError BOOLEAN, durationMs DOUBLE, inputTokens BIGINT, outputTokens BIGINT, name VARCHAR, count BIGINT)'}`;

/** The same typed fields from a `lines` table (bundles), through json_transform. */
export const TYPED_FROM_LINES = `CREATE VIEW typed_events AS SELECT unnest(json_transform(line, '{"kind": "VARCHAR", "payloadRef": {"bytes": "BIGINT"}, "redacted": ["VARCHAR"],
  "payload": {"data": {"bytes": "BIGINT"}}, "attrs": {"toolName": "VARCHAR", "model": "VARCHAR", "outcome": "VARCHAR", "isError": "BOOLEAN", "durationMs": "DOUBLE",
  "inputTokens": "BIGINT", "outputTokens": "BIGINT", "name": "VARCHAR", "count": "BIGINT"}}')) FROM lines`;

/** Typed rows from the segment files; a torn last line of a plain segment is skipped. */
function ndjsonSource(sealed: string[], plain: string[], columns: string): string {
  const nd = (files: string[], compression: string) =>
    `SELECT * FROM read_ndjson(${sqlList(files)}, compression = '${compression}', columns = ${columns}, ignore_errors = true)`;
  const parts: string[] = [];
  if (sealed.length) parts.push(nd(sealed, "zstd"));
  // The JSON reader names it 'uncompressed'; its CSV reader (linesSource) also takes 'none'.
  if (plain.length) parts.push(nd(plain, "uncompressed"));
  return parts.join(" UNION ALL ");
}

/** One text line per event, read by DuckDB from the segment files (zstd decoded natively, many lines per call). */
function linesSource(sealed: string[], plain: string[]): string {
  const csv = (files: string[], compression: string) =>
    `SELECT line FROM read_csv(${sqlList(files)}, compression = '${compression}', columns = {'line': 'VARCHAR'}, delim = '\\x01', quote = '', escape = '', header = false, auto_detect = false, null_padding = false)`;
  const parts: string[] = [];
  if (sealed.length) parts.push(csv(sealed, "zstd"));
  // Plain segments belong to running or crashed runs: their last line may be torn.
  if (plain.length) parts.push(`SELECT line FROM (${csv(plain, "none")}) WHERE json_valid(line)`);
  if (parts.length === 0) return "SELECT NULL::VARCHAR AS line WHERE false";
  return parts.join(" UNION ALL ");
}

/**
 * The same tables as the recorder's `RecordingDatabase` (`events`, `spans`, `artifacts`, with the
 * columns documented in recorder/README.md) built by DuckDB straight from a store's segment files,
 * so a million events load in about a second instead of being parsed one by one in JavaScript.
 * Sealed segments are checked first, as the JavaScript reader checks them (recorded sha256, and a
 * frame that cannot inflate past its declared size); `listSegments` says which segment is
 * authoritative; `lines` is kept as a view for byte counts. With `readOnly`, SQL can read these
 * tables and nothing else (see `lockToReading`).
 */
export async function openSegmentTables(storeDir: string, runDirs: readonly string[], options: { readOnly?: boolean } = {}): Promise<RecordingTables> {
  const sealed: string[] = [];
  const plain: string[] = [];
  for (const runDir of runDirs) {
    for (const segment of await listSegments(runDir)) {
      if (!segment.sealed) plain.push(segment.path);
      else {
        await verifySealedSegment(segment);
        sealed.push(segment.path);
      }
    }
  }
  const instance = await DuckDBInstance.create(":memory:", { autoinstall_known_extensions: "false", autoload_known_extensions: "false" });
  const connection = await instance.connect();
  const close = (): void => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    await connection.run(`CREATE VIEW lines AS ${linesSource(sealed, plain)}`);
    if (sealed.length || plain.length) {
      await connection.run(`CREATE VIEW typed_events AS ${ndjsonSource(sealed, plain, TYPED_EVENT_COLUMNS)}`);
      await connection.run(`CREATE VIEW raw_events AS ${ndjsonSource(sealed, plain, RAW_COLUMNS)}`);
    } else {
      await connection.run(TYPED_FROM_LINES);
      await connection.run(`CREATE VIEW raw_events AS SELECT * FROM (SELECT NULL::VARCHAR AS runId, NULL::BIGINT AS seq, NULL::BIGINT AS ts, NULL::VARCHAR AS kind,
        NULL::VARCHAR AS spanId, NULL::VARCHAR AS parentSpanId, NULL::JSON AS attrs, NULL::JSON AS payload,
        NULL::STRUCT(sha256 VARCHAR, bytes BIGINT, preview VARCHAR) AS payloadRef, NULL::JSON AS redacted) WHERE false`);
    }
    await connection.run(EVENTS_VIEW);
    await createSpans(connection, runDirs);
    await createArtifacts(connection, storeDir);
    if (options.readOnly) await lockToReading(connection, [...sealed, ...plain]);
  } catch (error) {
    close();
    throw error;
  }
  return { connection, close };
}

/** Every field of an event line, typed; DuckDB reads only the columns a query uses. */
const RAW_COLUMNS = `{'runId': 'VARCHAR', 'seq': 'BIGINT', 'ts': 'BIGINT', 'kind': 'VARCHAR', 'spanId': 'VARCHAR', 'parentSpanId': 'VARCHAR', 'attrs': 'JSON',
  'payload': 'JSON', 'payloadRef': 'STRUCT(sha256 VARCHAR, bytes BIGINT, preview VARCHAR)', 'redacted': 'JSON'}`;

const EVENTS_VIEW = `
CREATE VIEW events AS
SELECT runId AS run_id, seq, epoch_ms(ts)::TIMESTAMP_MS AS ts, ts AS ts_ms, kind, spanId AS span_id, parentSpanId AS parent_span_id,
  (attrs->>'toolName') AS tool_name, (attrs->>'toolCallId') AS tool_call_id, attrs, payload,
  payloadRef.sha256 AS payload_sha256, payloadRef.bytes AS payload_bytes, payloadRef.preview AS payload_preview, redacted
FROM raw_events`;

/**
 * The `spans` table through core's one mapping (what the live exporters send): the events'
 * summary attributes are read by DuckDB, mapped in JavaScript and appended.
 */
async function createSpans(connection: DuckDBConnection, runDirs: readonly string[]): Promise<void> {
  await connection.run(SPANS_TABLE);
  const runs = new Map<string, RunFacts>();
  for (const runDir of runDirs) {
    const manifest = await readRunManifest(runDir).catch(() => undefined);
    if (manifest) runs.set(manifest.runId, manifest);
  }
  const reader = await connection.runAndReadAll("SELECT runId, seq, ts, kind, spanId, parentSpanId, CAST(attrs AS VARCHAR) AS attrs FROM raw_events ORDER BY runId, seq");
  const events: RecordedEvent[] = reader.getRowObjectsJS().map((r) => ({
    v: 1,
    runId: String(r.runId),
    seq: Number(r.seq),
    ts: Number(r.ts),
    kind: String(r.kind),
    spanId: typeof r.spanId === "string" ? r.spanId : null,
    parentSpanId: typeof r.parentSpanId === "string" ? r.parentSpanId : null,
    attrs: typeof r.attrs === "string" ? (JSON.parse(r.attrs) as Record<string, unknown>) : {},
  }));
  await appendSpans(connection, spanRows(events, runs));
}

/** `artifacts`: every artifact the events reference, with its stored size when present in the store. */
async function createArtifacts(connection: DuckDBConnection, storeDir: string): Promise<void> {
  await connection.run("CREATE TABLE stored_artifacts (sha256 VARCHAR, stored_bytes BIGINT)");
  const store = new ArtifactStore(storeDir);
  const ids = await store.list().catch(() => [] as string[]);
  if (ids.length) {
    const appender = await connection.createAppender("stored_artifacts");
    for (const id of ids) {
      const stat = await fs.stat(store.pathOf(id)).catch(() => undefined);
      if (!stat) continue;
      appender.appendVarchar(id);
      appender.appendBigInt(BigInt(stat.size));
      appender.endRow();
    }
    appender.closeSync();
  }
  await connection.run(`
CREATE VIEW artifacts AS
SELECT r.sha256, r.run_id, r.seq, r.kind, r.bytes, s.stored_bytes, s.sha256 IS NOT NULL AS present, r.preview
FROM (
  SELECT payload_sha256 AS sha256, run_id, seq, 'payload' AS kind, payload_bytes AS bytes, payload_preview AS preview FROM events WHERE payload_sha256 IS NOT NULL
  UNION ALL
  SELECT ref.sha256, run_id, seq, 'extension', ref.bytes, NULL FROM (
    SELECT run_id, seq, unnest(from_json((attrs->'artifacts'), '[{"sha256":"VARCHAR","bytes":"BIGINT"}]')) AS ref FROM events WHERE json_type((attrs->'artifacts')) = 'ARRAY'
  ) WHERE regexp_full_match(coalesce(ref.sha256, ''), '[0-9a-f]{64}')
  UNION ALL
  -- CUSTOM events of recordings made before typed artifact references
  SELECT (attrs->>'sha256'), run_id, seq, 'extension', TRY_CAST((payload->'data'->>'bytes') AS BIGINT), NULL FROM events
  WHERE kind = 'custom' AND (attrs->'artifacts') IS NULL AND regexp_full_match(coalesce((attrs->>'sha256'), ''), '[0-9a-f]{64}')
) r LEFT JOIN stored_artifacts s USING (sha256)`);
}

