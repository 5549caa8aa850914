/**
 * Issue 35's compaction figures: a store of ended runs (COMPACT_RUNS, default 10,000 of about 100
 * events: a million events; BENCH_SMALL=1: 200 of 20), written as the recorder leaves them
 * (SealedRunWriter), then as users run it, each command in its own process:
 * - `trace query --all` with an aggregate over events, on the segments, beside the floor measured
 *   in the same run (`trace --version`, starting the program);
 * - `trace compact` (every run: --max-runs past the count), in events per second, beside the
 *   anchor the issue names: DuckDB reading the same sealed segments (read_ndjson, zstd) and
 *   writing them as one Parquet file, in this process;
 * - the same `trace query --all` on the partitions.
 *
 *   node scripts/run-bench.mjs compaction   (build first: npx turbo run build)
 *   COMPACT_STORE=/tmp/compact-store ...     (keep the generated store; it is compacted once)
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { writeFleetStore } from "./support/fleet-store.js";
import { report, sized, type BenchRow } from "./support/report.js";
import { medianTraceRun, runTraceTimed } from "./support/trace-process.js";

const RUNS = Number(process.env.COMPACT_RUNS ?? sized(10_000, 200));
const EVENTS_PER_RUN = sized(100, 20);
const NOW = Date.UTC(2026, 11, 5, 6, 0);
const DAY = 86_400_000;
const SQL = "SELECT kind, count(*) AS n, sum(payload_bytes) AS stored_aside FROM events GROUP BY kind ORDER BY n DESC";

const seconds = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e9;

/** Every sealed segment of the store, the anchor's input. */
function sealedSegments(store: string): string[] {
  const out: string[] = [];
  for (const run of readdirSync(join(store, "runs"))) {
    const dir = join(store, "runs", run, "segments");
    for (const name of readdirSync(dir)) if (name.endsWith(".ndjson.zst")) out.push(join(dir, name));
  }
  return out;
}

const kept = process.env.COMPACT_STORE;
const work = mkdtempSync(join(tmpdir(), "hx-compaction-bench-"));
const store = kept ?? join(work, "store");
try {
  let events = 0;
  if (!(kept && existsSync(join(store, "runs")))) {
    const t0 = process.hrtime.bigint();
    const written = await writeFleetStore(
      store,
      { runs: RUNS, eventsPerRun: EVENTS_PER_RUN, from: NOW - 3 * DAY, to: NOW, concurrency: 4 },
      (done) => done % 2_000 === 0 && console.log(`  ${done} runs written`),
    );
    events = written.events;
    console.log(`store: ${RUNS} runs, ${events} events, written in ${seconds(t0).toFixed(1)} s`);
  }
  const rows: BenchRow[] = [];
  const floor = medianTraceRun(["--version"]);
  const query = (when: string) => {
    const run = medianTraceRun(["--store", store, "query", "--all", SQL]);
    rows.push({
      measure: `trace query --all, an aggregate over events, ${when} (${RUNS} runs)`,
      unit: "s",
      harnessx: run.seconds,
      anchor: floor.seconds,
      anchorName: "trace --version",
      note: `${run.maxRssMb.toFixed(0)} MB; ${(run.seconds - floor.seconds).toFixed(2)} s over the floor`,
      aim: { on: "value", op: "<=", target: floor.seconds + 2 },
    });
  };
  // The first command after the runs were written also brings the catalog level with the folders.
  runTraceTimed(["--store", store, "ls", "--limit", "1"]);
  query("on the segments");

  const segments = sealedSegments(store);
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  const list = `[${segments.map((s) => `'${s.replaceAll("'", "''")}'`).join(", ")}]`;
  const t1 = process.hrtime.bigint();
  await connection.run(
    `COPY (SELECT * FROM read_ndjson(${list}, compression = 'zstd', ignore_errors = true, maximum_object_size = 16777216)) TO '${join(work, "anchor.parquet")}' (FORMAT parquet, COMPRESSION zstd)`,
  );
  const anchorSeconds = seconds(t1);
  const [counted] = (
    await connection.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM '${join(work, "anchor.parquet")}'`)
  ).getRowObjectsJson();
  connection.closeSync();
  db.closeSync();
  const total = Number(counted?.n ?? events);

  const compact = runTraceTimed(["--store", store, "--json", "compact", "--max-runs", String(RUNS + 1)]);
  const result = JSON.parse(compact.output) as { runs: number; events: number; files: string[] };
  rows.push({
    measure: `trace compact (${result.runs} runs, ${result.events} events, ${result.files.length} files)`,
    unit: "events/s",
    harnessx: result.events / compact.seconds,
    anchor: total / anchorSeconds,
    anchorName: "DuckDB read_ndjson -> Parquet of the same segments",
    note: `${compact.seconds.toFixed(2)} s, ${compact.maxRssMb.toFixed(0)} MB; anchor ${anchorSeconds.toFixed(2)} s`,
    aim: { on: "value", op: ">=", target: 100_000 },
  });
  query("on the partitions");
  report("compaction", rows);
} finally {
  if (!kept) rmSync(work, { recursive: true, force: true });
}
