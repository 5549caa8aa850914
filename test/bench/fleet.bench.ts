/**
 * Issue 20's scale figures: a fleet's store of 10,000 ended runs of ~500 events (5M events;
 * FLEET_RUNS and FLEET_EVENTS_PER_RUN to change, BENCH_SMALL=1: 40 runs) written as the recorder
 * leaves them, then
 * - exported as a dataset (`exportDataset`, default options): events/s, beside the floor of any
 *   reader measured in the same process (decompress + JSON.parse every line, on a sample of runs);
 * - synced to s3rver on loopback (`uploadDataset`, as `trace sync` does after its export): MB/s,
 *   beside the S3 SDK's plain PutObject of a sample of the same files, as many at once;
 * - queried: "failed runs by tool over the last day" on the dataset (fetched from S3 with the date
 *   pushed down, then read; and read in place locally) and on the store (`trace query --all`'s
 *   tables), with the same rows required of all three;
 * - and the bytes stored per event: the dataset's Parquet files, and the store's runs.
 *
 *   node scripts/run-bench.mjs fleet   (build first: npx tsc -p recorder/tsconfig.json)
 *   FLEET_RUNS=500 node --import tsx --conditions=harnessx-source test/bench/fleet.bench.ts
 *   FLEET_STORE=/tmp/fleet ...   (keep the generated store and reuse it)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  exportDataset,
  fetchDataset,
  openDatasetTables,
  openSegmentTables,
  runFolders,
  uploadDataset,
  type RecordingTables,
  type RunManifest,
} from "@harnessx/recorder";
import { S3RVER_CREDENTIALS, startLocalS3 } from "@harnessx/recorder/test-support";
import { bytesUnder } from "./support/recording.js";
import { writeFleetStore } from "./support/fleet-store.js";
import { report, sized, type BenchRow } from "./support/report.js";
import { decompressParseFloor } from "./support/sealed-runs.js";

const RUNS = Number(process.env.FLEET_RUNS ?? sized(10_000, 40));
const EVENTS_PER_RUN = Number(process.env.FLEET_EVENTS_PER_RUN ?? 500);
const DAY = 86_400_000;
/** The end of the fleet's two days (fixed, so a kept store answers the same query). */
const NOW = Date.UTC(2026, 11, 3, 6, 0);
const SINCE = NOW - DAY;
const FAILED_RUNS_BY_TOOL = `SELECT e.tool_name, count(DISTINCT e.run_id)::INT AS failed_runs, count(*)::INT AS failed_calls
  FROM events e JOIN runs r USING (run_id)
  WHERE r.status = 'failed' AND r.started_at >= epoch_ms(${SINCE}) AND e.kind = 'tool_call_end' AND json_extract_string(e.attrs, '$.outcome') = 'failed'
  GROUP BY 1 ORDER BY 1`;

const seconds = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e9;
const mb = (bytes: number): number => bytes / 1024 / 1024;

async function timedQuery(open: () => Promise<RecordingTables>): Promise<{ seconds: number; rows: string }> {
  const started = process.hrtime.bigint();
  const tables = await open();
  try {
    const rows = JSON.stringify((await tables.connection.runAndReadAll(FAILED_RUNS_BY_TOOL)).getRowObjectsJson());
    return { seconds: seconds(started), rows };
  } finally {
    tables.close();
  }
}

/** Every file under `dir`, with its dataset-relative key. */
function filesUnder(dir: string, prefix = ""): Array<{ key: string; path: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`)
      : [{ key: `${prefix}${entry.name}`, path: join(dir, entry.name) }],
  );
}

const kept = process.env.FLEET_STORE;
const work = mkdtempSync(join(tmpdir(), "hx-fleet-bench-"));
const store = kept ?? join(work, "store");
const s3 = await startLocalS3("fleet");
const connection = { endpoint: s3.endpoint, credentials: S3RVER_CREDENTIALS };
try {
  let events: number;
  if (kept && existsSync(join(store, "runs"))) {
    events = (await runFolders(store)).reduce(
      (sum, r) => sum + (JSON.parse(readFileSync(join(r.dir, "run.json"), "utf8")) as RunManifest).summary!.events,
      0,
    );
    console.log(`store: reusing ${store} (${events.toLocaleString("en-US")} events)`);
  } else {
    const t0 = process.hrtime.bigint();
    const fleet = await writeFleetStore(
      store,
      { runs: RUNS, eventsPerRun: EVENTS_PER_RUN, from: NOW - 2 * DAY, to: NOW },
      (done) => console.log(`  ${done} runs written`),
    );
    events = fleet.events;
    console.log(
      `store: ${RUNS.toLocaleString("en-US")} runs, ${events.toLocaleString("en-US")} events (${fleet.failedRuns} failed runs) over two days, written in ${seconds(t0).toFixed(1)} s`,
    );
  }
  const runDirs = (await runFolders(store)).map((r) => r.dir).sort();
  const storeBytes = bytesUnder(join(store, "runs"));

  // The floor of any export: reading the events back, on every tenth run at full size.
  const step = Math.max(1, Math.floor(runDirs.length / 1000));
  const floor = await decompressParseFloor(runDirs.filter((_, i) => i % step === 0));
  const floorRate = floor.events / floor.seconds;
  console.log(
    `floor: decompress + JSON.parse ${floor.events.toLocaleString("en-US")} events (${mb(floor.bytes).toFixed(0)} MB of lines, 1 run in ${step}): ${floor.seconds.toFixed(2)} s`,
  );

  const datasetDir = join(work, "dataset");
  const t1 = process.hrtime.bigint();
  const exported = await exportDataset({ storeDir: store, out: datasetDir });
  const exportSeconds = seconds(t1);
  const tableFiles = exported.runs.flatMap((r) => r.files);
  const parquetBytes = tableFiles.reduce((sum, f) => sum + f.bytes, 0);
  console.log(
    `export: ${exported.runs.length} runs, ${tableFiles.length} Parquet files (${mb(parquetBytes).toFixed(1)} MB) in ${exportSeconds.toFixed(1)} s; skipped ${exported.skipped.length}`,
  );

  const upload = await uploadDataset({
    datasetDir,
    to: "s3://fleet/prod",
    manifestFile: join(work, "sync-manifest.ndjson"),
    connection,
  });
  if (upload.failed.length || upload.stoppedBy)
    throw new Error(`sync failed: ${upload.failed[0]?.error ?? upload.stoppedBy?.message}`);
  const syncRate = mb(upload.bytesUploaded) / (upload.elapsedMs / 1000);
  console.log(
    `sync: ${upload.uploaded} files, ${mb(upload.bytesUploaded).toFixed(1)} MB in ${(upload.elapsedMs / 1000).toFixed(1)} s`,
  );
  const t2 = process.hrtime.bigint();
  const rerun = await uploadDataset({
    datasetDir,
    to: "s3://fleet/prod",
    manifestFile: join(work, "sync-manifest.ndjson"),
    connection,
  });
  const rerunSeconds = seconds(t2);
  if (rerun.uploaded !== 0) throw new Error(`a rerun uploaded ${rerun.uploaded} files`);

  // The anchor: the SDK's plain PutObject of every fifth file of the same dataset, four at a time as the sync sends them.
  const sample = filesUnder(datasetDir).filter((_, i) => i % 5 === 0);
  let sampleBytes = 0;
  let anchorFailures = 0;
  const t3 = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next++; i < sample.length; i = next++) {
        const body = readFileSync(sample[i]!.path);
        // s3rver once answered 500 after the SDK's retries at 10,000 runs: such a file is left out of the anchor, and counted.
        const sent = await s3.put(`anchor/${sample[i]!.key}`, body).then(
          () => true,
          () => false,
        );
        if (sent) sampleBytes += body.byteLength;
        else anchorFailures++;
      }
    }),
  );
  const putRate = mb(sampleBytes) / seconds(t3);
  if (anchorFailures)
    console.log(`anchor: ${anchorFailures} of ${sample.length} PutObjects failed (left out of its rate)`);

  const t4 = process.hrtime.bigint();
  const fetched = await fetchDataset({ from: "s3://fleet/prod", since: SINCE, into: join(work, "cache"), connection });
  const fetchSeconds = seconds(t4);
  console.log(
    `fetch --since 1d: ${fetched.fetched} files, ${mb(fetched.bytes).toFixed(1)} MB in ${fetchSeconds.toFixed(1)} s`,
  );
  const fromS3 = await timedQuery(() => openDatasetTables(fetched.dir, { readOnly: true, since: SINCE }));
  const fromDataset = await timedQuery(() => openDatasetTables(datasetDir, { readOnly: true, since: SINCE }));
  const fromStore = await timedQuery(() => openSegmentTables(store, runDirs, { readOnly: true, spans: false }));
  console.log(`  answer: ${fromDataset.rows.slice(0, 240)}`);
  if (fromDataset.rows !== fromStore.rows || fromS3.rows !== fromStore.rows)
    throw new Error(`the dataset and the store disagree: ${fromDataset.rows} / ${fromS3.rows} vs ${fromStore.rows}`);
  if (fromStore.rows === "[]") throw new Error("the query found no failed run in the last day");

  const scale = `${RUNS.toLocaleString("en-US")} runs, ${(events / 1e6).toFixed(2)}M events`;
  const rows: BenchRow[] = [
    {
      measure: `dataset export (exportDataset), ${scale}`,
      unit: "events/s",
      harnessx: events / exportSeconds,
      anchor: floorRate,
      anchorName: "decompress + JSON.parse",
      aim: { on: "ratio", op: ">=", target: 0.5 },
      note: `${exportSeconds.toFixed(1)} s`,
    },
    {
      measure: `sync to s3rver on loopback (uploadDataset), ${upload.uploaded} files`,
      unit: "MB/s",
      harnessx: syncRate,
      anchor: putRate,
      anchorName: "SDK PutObject, 1 file in 5",
      aim: { on: "ratio", op: ">=", target: 0.8 },
      note: `${(upload.elapsedMs / 1000).toFixed(1)} s; a rerun sends nothing in ${rerunSeconds.toFixed(1)} s`,
    },
    {
      measure: `failed runs by tool, last day: on the dataset fetched from S3 (--since pushed down)`,
      unit: "s",
      harnessx: fetchSeconds + fromS3.seconds,
      anchor: fromStore.seconds,
      anchorName: "the store, trace query --all",
      aim: { on: "value", op: "<=", target: 10 },
      note: `fetch ${fetchSeconds.toFixed(1)} s (${fetched.fetched} files) + query ${fromS3.seconds.toFixed(2)} s`,
    },
    {
      measure: `failed runs by tool, last day: on the local dataset (--since)`,
      unit: "s",
      harnessx: fromDataset.seconds,
      anchor: fromStore.seconds,
      anchorName: "the store, trace query --all",
      aim: { on: "value", op: "<=", target: 1 },
    },
    {
      measure: `bytes per event: dataset Parquet files`,
      unit: "B",
      harnessx: parquetBytes / events,
      anchor: storeBytes / events,
      anchorName: "the store's runs/",
    },
  ];
  report("fleet", rows);
} finally {
  await s3.close();
  rmSync(work, { recursive: true, force: true });
}
