import { promises as fs } from "node:fs";
import type { DuckDBConnection, DuckDBInstance, DuckDBValue, Json } from "@duckdb/node-api";
import { memoryDatabase } from "./duckdb.js";
import { ArtifactStore } from "@harnessx/artifacts";
import { lockToReading } from "./read-only.js";
import type { RunManifest } from "../format/event.js";
import { createRunsTable } from "./runs-table.js";
import type { SpanCacheUse } from "./span-cache.js";
import { createSpansTable } from "./span-table.js";
import { jsonStructure, RAW_EVENT_SHAPE, TYPED_EVENT_SHAPE } from "./event-columns.js";
import { selectAs } from "../format/table-columns.js";

/** DuckDB tables over recorded runs; close when done. */
export interface RecordingTables {
  /** A connection to the in-memory database: run SQL on it with `@duckdb/node-api`'s methods. */
  readonly connection: DuckDBConnection;
  /** Runs SQL and returns its rows as JSON-friendly objects (BIGINT as a number when safe, timestamps as text). */
  query(sql: string, params?: DuckDBValue[] | Record<string, DuckDBValue>): Promise<Array<Record<string, Json>>>;
  /** Closes the connection and frees the database; the tables are gone afterwards. */
  close(): void;
}

/**
 * Rows that are events: a line that is not one (JSON of another shape, or not JSON, which the
 * lenient DuckDB readers give as a row of NULLs) is left out, as the JavaScript readers skip it.
 */
export const IS_EVENT = "runId IS NOT NULL AND seq IS NOT NULL AND kind IS NOT NULL";

/** The fields summaries aggregate, typed, from a `lines` table (one JSON event a line), through json_transform. */
export const TYPED_FROM_LINES = `CREATE VIEW typed_events AS SELECT * FROM (SELECT unnest(json_transform(line, '${jsonStructure(TYPED_EVENT_SHAPE)}')) FROM lines)
WHERE ${IS_EVENT}`;

/** Every field of an event line from a `lines` table, typed as the segment reader types them. */
export const RAW_FROM_LINES = `CREATE VIEW raw_events AS
SELECT runId, seq, ts, kind, spanId, parentSpanId, attrs::JSON AS attrs, payload::JSON AS payload, payloadRef, redacted::JSON AS redacted
FROM (SELECT unnest(json_transform(line, '${jsonStructure(RAW_EVENT_SHAPE)}')) FROM lines)
WHERE ${IS_EVENT}`;

const EVENTS_VIEW = `CREATE VIEW events AS SELECT ${selectAs("events", {
  run_id: "runId",
  seq: "seq",
  ts: "epoch_ms(ts)::TIMESTAMP_MS",
  ts_ms: "ts",
  kind: "kind",
  span_id: "spanId",
  parent_span_id: "parentSpanId",
  tool_name: "(attrs->>'toolName')",
  tool_call_id: "(attrs->>'toolCallId')",
  attrs: "attrs",
  payload: "payload",
  payload_sha256: "payloadRef.sha256",
  payload_bytes: "payloadRef.bytes",
  payload_preview: "payloadRef.preview",
  redacted: "redacted",
})} FROM raw_events`;

const ARTIFACTS_VIEW = `
CREATE VIEW artifacts AS
SELECT ${selectAs("artifacts", {
  sha256: "r.sha256",
  run_id: "r.run_id",
  seq: "r.seq",
  kind: "r.kind",
  bytes: "r.bytes",
  stored_bytes: "s.stored_bytes",
  present: "s.sha256 IS NOT NULL",
  preview: "r.preview",
})}
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
) r LEFT JOIN stored_artifacts s USING (sha256)`;

/** Tables being built: the instance too, for the second connection the spans table is appended on. */
export interface OwnedTables extends RecordingTables {
  readonly instance: DuckDBInstance;
}

/** A fresh in-memory database (see `memoryDatabase`), with its closer. */
export async function newTables(): Promise<OwnedTables> {
  const instance = await memoryDatabase();
  const connection = await instance.connect();
  return {
    instance,
    connection,
    async query(sql, params) {
      return (await connection.runAndReadAll(sql, params)).getRowObjectsJson();
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * Fresh tables filled by `build` (which returns the files they read), locked to reading those
 * files with `readOnly`; closed again if anything fails, so no caller leaks a database.
 */
export async function openTables(
  build: (tables: OwnedTables) => Promise<readonly string[]>,
  options: { readOnly?: boolean },
): Promise<RecordingTables> {
  const tables = await newTables();
  try {
    const readable = await build(tables);
    if (options.readOnly) await lockToReading(tables.connection, readable);
  } catch (error) {
    tables.close();
    throw error;
  }
  return tables;
}

/** Which tables to build; `spans: false` leaves the spans table out (SQL naming it then fails) for callers that never read it. */
export interface TableOptions {
  readOnly?: boolean;
  /** Build the `spans` table (default true): the one table built in JavaScript, the costly part of opening a big run. */
  spans?: boolean;
}

/** Where the tables' facts beyond the events come from. */
export interface TableFacts {
  /** Each run's `run.json`: its row of the `runs` table, and its facts (trace id, agent, session) for the span mapping. */
  runs: ReadonlyMap<string, RunManifest>;
  /** Compressed size of every artifact present, by the id the events name. */
  storedSizes: ReadonlyMap<string, number>;
  /** Runs whose spans are read from, or written to, their cache (ended runs of a store); `everyRun` when every run of the tables has a use. */
  spanCaches?: { uses: ReadonlyMap<string, SpanCacheUse>; everyRun: boolean };
}

/**
 * The documented tables over a `raw_events` view: `runs` (a row per `run.json`), `events` (a view), `spans` (through core's
 * one mapping, what the live exporters send: the events' summary attributes are read by DuckDB,
 * mapped in JavaScript and appended) and `artifacts` (every artifact the events reference).
 */
export async function createRecordingTables(
  tables: OwnedTables,
  facts: TableFacts,
  options: TableOptions = {},
): Promise<string[]> {
  const { connection } = tables;
  await createRunsTable(connection, facts.runs.values());
  await connection.run(EVENTS_VIEW);
  // The cache files `spans` reads, when it is a view over them (they must stay readable once locked).
  const spanFiles =
    options.spans !== false ? await createSpansTable(tables.instance, connection, facts.runs, facts.spanCaches) : [];
  await connection.run("CREATE TABLE stored_artifacts (sha256 VARCHAR, stored_bytes BIGINT)");
  if (facts.storedSizes.size) {
    const appender = await connection.createAppender("stored_artifacts");
    for (const [id, size] of facts.storedSizes) {
      appender.appendVarchar(id);
      appender.appendBigInt(BigInt(size));
      appender.endRow();
    }
    appender.closeSync();
  }
  await connection.run(ARTIFACTS_VIEW);
  return spanFiles;
}

/**
 * The compressed size of artifacts in a store: those named in `ids` (the ones the runs reference),
 * or every one in the store when `ids` is undefined (a run still being written has not listed
 * its artifacts yet). Looked up a batch at a time, so a big store does not cost a sequential stat
 * of each of its files.
 */
export async function storedArtifactSizes(storeDir: string, ids?: Iterable<string>): Promise<Map<string, number>> {
  const store = new ArtifactStore(storeDir);
  const wanted = ids ? [...new Set(ids)] : await store.list().catch(() => [] as string[]);
  const sizes = new Map<string, number>();
  for (let from = 0; from < wanted.length; from += STAT_BATCH) {
    const batch = wanted.slice(from, from + STAT_BATCH);
    const stats = await Promise.all(batch.map((id) => fs.stat(store.pathOf(id)).catch(() => undefined)));
    stats.forEach((stat, i) => {
      if (stat) sizes.set(batch[i]!, stat.size);
    });
  }
  return sizes;
}

/** Artifact files looked up at once. */
const STAT_BATCH = 64;

/**
 * The same tables as `openSegmentTables`, from event lines already in memory (a bundle's): a
 * `lines` table, `typed_events` and `raw_events` parsed from it by DuckDB, then the documented
 * tables built by the same SQL, so a run and its bundle answer a query alike.
 */
export async function openLineTables(
  lines: Iterable<string>,
  facts: TableFacts,
  options: TableOptions = {},
): Promise<RecordingTables> {
  return openTables(async (tables) => {
    const { connection } = tables;
    await createLinesTable(connection, "lines", lines);
    await connection.run(TYPED_FROM_LINES);
    await connection.run(RAW_FROM_LINES);
    await createRecordingTables(tables, facts, options);
    return [];
  }, options);
}

/** A table of one VARCHAR column `line`, filled with the given event lines. */
export async function createLinesTable(
  connection: DuckDBConnection,
  name: "lines" | "plain_lines",
  lines: Iterable<string>,
): Promise<void> {
  await connection.run(`CREATE TABLE ${name} (line VARCHAR)`);
  const appender = await connection.createAppender(name);
  for (const line of lines) {
    appender.appendVarchar(line);
    appender.endRow();
  }
  appender.closeSync();
}
