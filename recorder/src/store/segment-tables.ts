import { checkedLineRanges, listSegments, readSegmentFile, verifySealedSegment, type SegmentFile } from "./read-run.js";
import { completeLines } from "../recording/seal.js";
import { MAX_EVENT_LINE_BYTES } from "../format/read-limits.js";
import { spanCacheUse, type SpanCacheUse } from "./span-cache.js";
import type { RunManifest } from "../format/event.js";
import {
  createLinesTable,
  createRecordingTables,
  IS_EVENT,
  openTables,
  RAW_FROM_LINES,
  storedArtifactSizes,
  TYPED_FROM_LINES,
  type OwnedTables,
  type RecordingTables,
  type TableOptions,
} from "./recording-tables.js";
import { readRunManifest } from "./run-manifest.js";
import { sqlList } from "./sql-literal.js";
import { ndjsonColumns, RAW_EVENT_SHAPE, TYPED_EVENT_SHAPE } from "./event-columns.js";

/** The fields summaries aggregate, typed; DuckDB's JSON reader parses each line once. */
const TYPED_EVENT_COLUMNS = ndjsonColumns(TYPED_EVENT_SHAPE);

/** Typed rows from sealed segment files; any line that is not an event is skipped. */
function ndjsonSource(sealed: string[], columns: string): string {
  return `SELECT * FROM read_ndjson(${sqlList(sealed)}, compression = 'zstd', columns = ${columns}, ignore_errors = true, maximum_object_size = ${MAX_EVENT_LINE_BYTES}) WHERE ${IS_EVENT}`;
}

/** DuckDB's CSV reader buffers 16 lines of `max_line_size` by default (256 MiB a file at this limit): two hold any line. */
const CSV_BUFFER_BYTES = 2 * MAX_EVENT_LINE_BYTES;

/** One text line per event: sealed segments read by DuckDB (zstd decoded natively), then the snapshot of the open ones. */
function linesSource(sealed: string[]): string {
  const parts = ["SELECT line FROM plain_lines WHERE json_valid(line)"];
  if (sealed.length) {
    parts.unshift(
      `SELECT line FROM read_csv(${sqlList(sealed)}, compression = 'zstd', columns = {'line': 'VARCHAR'}, delim = '\\x01', quote = '', escape = '', header = false, auto_detect = false, null_padding = false, max_line_size = ${MAX_EVENT_LINE_BYTES}, buffer_size = ${CSV_BUFFER_BYTES})`,
    );
  }
  return parts.join(" UNION ALL ");
}

/**
 * The segments of the runs: sealed ones (verified) by path, the plain ones of running or crashed
 * runs read now, whole lines only (a torn last line is cut). A plain segment sealed while it is
 * listed or read is gone by the time it is opened: the run is listed again, so a live run reads
 * as a consistent snapshot and its later seals cannot break a query.
 */
async function snapshotSegments(
  runDirs: readonly string[],
): Promise<{ sealed: string[]; plainLines: string[]; segmentsOf: Map<string, SegmentFile[]> }> {
  const sealed: string[] = [];
  const plainLines: string[] = [];
  const segmentsOf = new Map<string, SegmentFile[]>();
  for (const runDir of runDirs) {
    for (let attempt = 1; ; attempt++) {
      try {
        const run = await snapshotRun(runDir);
        sealed.push(...run.sealed);
        plainLines.push(...run.plainLines);
        segmentsOf.set(runDir, run.segments);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt === 5) throw error;
      }
    }
  }
  return { sealed, plainLines, segmentsOf };
}

async function snapshotRun(
  runDir: string,
): Promise<{ sealed: string[]; plainLines: string[]; segments: SegmentFile[] }> {
  const sealed: string[] = [];
  const plainLines: string[] = [];
  const segments = await listSegments(runDir);
  for (const segment of segments) {
    if (segment.sealed) {
      await verifySealedSegment(segment);
      sealed.push(segment.path);
      continue;
    }
    const bytes = completeLines(await readSegmentFile(segment)).complete;
    for (const [start, end] of checkedLineRanges(segment, bytes)) plainLines.push(bytes.toString("utf8", start, end));
  }
  return { sealed, plainLines, segments };
}

/**
 * The SQL tables over runs (`runs`, `events`, `spans`, `artifacts`, with the columns of
 * `TABLE_COLUMNS`) built by DuckDB straight from a store's segment files, so a million events
 * load in about a second instead of being parsed one by one in JavaScript.
 * Sealed segments are checked first, as the JavaScript reader checks them (recorded sha256, and a
 * frame that cannot inflate past its declared size); `listSegments` says which segment is
 * authoritative; `lines` is kept as a view for byte counts. With `readOnly`, SQL can read these
 * tables and nothing else (see `lockToReading`).
 */
export async function openSegmentTables(
  storeDir: string,
  runDirs: readonly string[],
  options: TableOptions = {},
): Promise<RecordingTables> {
  return openTables((tables) => buildSegmentTables(tables, storeDir, runDirs, options), options);
}

/**
 * `openSegmentTables` on tables already open (the store's tables add compacted partitions to
 * them); returns the files the tables read, for `lockToReading`. `storedIds`: artifacts other
 * tables reference, whose sizes are looked up too.
 */
export async function buildSegmentTables(
  tables: OwnedTables,
  storeDir: string,
  runDirs: readonly string[],
  options: TableOptions & { storedIds?: readonly string[] } = {},
): Promise<string[]> {
  const { sealed, plainLines, segmentsOf } = await snapshotSegments(runDirs);
  const runs = new Map<string, RunManifest>();
  const spanCaches = new Map<string, SpanCacheUse>();
  const referenced: string[] = [...(options.storedIds ?? [])];
  let everyRunEnded = true;
  for (const runDir of runDirs) {
    const manifest = await readRunManifest(runDir).catch(() => undefined);
    if (!manifest) continue;
    runs.set(manifest.runId, manifest);
    // Only a table that will hold spans reads or writes their cache.
    const cache = options.spans === false ? undefined : await spanCacheUse(manifest, segmentsOf.get(runDir) ?? []);
    if (cache) spanCaches.set(manifest.runId, cache);
    referenced.push(...(manifest.artifacts ?? []));
    if (manifest.endedAt === null) everyRunEnded = false;
  }
  // An ended run lists every artifact its events reference; one still written (or crashed) may not yet.
  const storedSizes = await storedArtifactSizes(storeDir, everyRunEnded ? referenced : undefined);
  const { connection } = tables;
  await createLinesTable(connection, "plain_lines", plainLines);
  await connection.run(`CREATE VIEW lines AS ${linesSource(sealed)}`);
  if (plainLines.length === 0 && sealed.length > 0) {
    // Only sealed segments: DuckDB's JSON reader parses each line once, straight from the files.
    await connection.run(`CREATE VIEW typed_events AS ${ndjsonSource(sealed, TYPED_EVENT_COLUMNS)}`);
    await connection.run(`CREATE VIEW raw_events AS ${ndjsonSource(sealed, RAW_COLUMNS)}`);
  } else {
    await connection.run(TYPED_FROM_LINES);
    await connection.run(RAW_FROM_LINES);
  }
  const everyRun = runDirs.length > 0 && spanCaches.size === runDirs.length;
  const spanFiles = await createRecordingTables(
    tables,
    { runs, storedSizes, spanCaches: { uses: spanCaches, everyRun } },
    options,
  );
  return [...sealed, ...spanFiles];
}

/** Every field of an event line, typed; DuckDB reads only the columns a query uses. */
const RAW_COLUMNS = ndjsonColumns(RAW_EVENT_SHAPE);
