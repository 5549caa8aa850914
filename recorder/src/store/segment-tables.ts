import { listSegments, verifySealedSegment } from "./read-run.js";
import { lockToReading } from "./read-only.js";
import type { RunFacts } from "./recording-database.js";
import { createRecordingTables, IS_EVENT, newTables, storedArtifactSizes, TYPED_FROM_LINES, type RecordingTables } from "./recording-tables.js";
import { readRunManifest } from "./run-manifest.js";
import { sqlList } from "./sql-literal.js";

/** The fields summaries aggregate, typed; DuckDB's JSON reader parses each line once. */
const TYPED_EVENT_COLUMNS = `{'runId': 'VARCHAR', 'seq': 'BIGINT', 'kind': 'VARCHAR', 'payloadRef': 'STRUCT(bytes BIGINT)', 'redacted': 'VARCHAR[]', 'payload': 'STRUCT(data STRUCT(bytes BIGINT))',
  'attrs': 'STRUCT(toolName VARCHAR, model VARCHAR, outcome VARCHAR, isError BOOLEAN, durationMs DOUBLE, inputTokens BIGINT, outputTokens BIGINT, name VARCHAR, count BIGINT)'}`;

/** Typed rows from the segment files; a torn last line of a plain segment, and any line that is not an event, is skipped. */
function ndjsonSource(sealed: string[], plain: string[], columns: string): string {
  const nd = (files: string[], compression: string) =>
    `SELECT * FROM read_ndjson(${sqlList(files)}, compression = '${compression}', columns = ${columns}, ignore_errors = true)`;
  const parts: string[] = [];
  if (sealed.length) parts.push(nd(sealed, "zstd"));
  // The JSON reader names it 'uncompressed'; its CSV reader (linesSource) also takes 'none'.
  if (plain.length) parts.push(nd(plain, "uncompressed"));
  return `SELECT * FROM (${parts.join(" UNION ALL ")}) WHERE ${IS_EVENT}`;
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
  const runs = new Map<string, RunFacts>();
  for (const runDir of runDirs) {
    const manifest = await readRunManifest(runDir).catch(() => undefined);
    if (manifest) runs.set(manifest.runId, manifest);
  }
  const storedSizes = await storedArtifactSizes(storeDir);
  const tables = await newTables();
  const { connection } = tables;
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
    await createRecordingTables(connection, { runs, storedSizes });
    if (options.readOnly) await lockToReading(connection, [...sealed, ...plain]);
  } catch (error) {
    tables.close();
    throw error;
  }
  return tables;
}

/** Every field of an event line, typed; DuckDB reads only the columns a query uses. */
const RAW_COLUMNS = `{'runId': 'VARCHAR', 'seq': 'BIGINT', 'ts': 'BIGINT', 'kind': 'VARCHAR', 'spanId': 'VARCHAR', 'parentSpanId': 'VARCHAR', 'attrs': 'JSON',
  'payload': 'JSON', 'payloadRef': 'STRUCT(sha256 VARCHAR, bytes BIGINT, preview VARCHAR)', 'redacted': 'JSON'}`;
