/**
 * Issue 35's listing figures: a store of 100,000 short ended runs (12 events each, written as the
 * recorder leaves them through its SealedRunWriter, which tells the run catalog as the recorder
 * does; CATALOG_RUNS to change, BENCH_SMALL=1: 300), then each command as users run it, in its
 * own process, median of three, beside the floor measured in the same run: `trace --version`
 * (starting the program). Measured: `trace ls`, `trace ls --limit 20`, `trace ls --status failed
 * --limit 20`, and the run ref `last-failed` (`trace summary last-failed`), on the catalog as the
 * recorders left it (logs only) and after `compactCatalog`; and what reading every run.json
 * costs, the way listing worked before the catalog.
 *
 *   node scripts/run-bench.mjs catalog   (build first: npx turbo run build)
 *   CATALOG_STORE=/tmp/catalog-store ...  (keep the generated store and reuse it)
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compactCatalog, readRunManifest, runFolders } from "@harnessx/recorder";
import { writeFleetStore } from "./support/fleet-store.js";
import { report, sized, type BenchRow } from "./support/report.js";
import { medianTraceRun, runTraceTimed } from "./support/trace-process.js";

const RUNS = Number(process.env.CATALOG_RUNS ?? sized(100_000, 300));
const NOW = Date.UTC(2026, 11, 5, 6, 0);
const DAY = 86_400_000;

const seconds = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e9;

const kept = process.env.CATALOG_STORE;
const work = mkdtempSync(join(tmpdir(), "hx-catalog-bench-"));
const store = kept ?? join(work, "store");
try {
  if (!(kept && existsSync(join(store, "runs")))) {
    const t0 = process.hrtime.bigint();
    await writeFleetStore(
      store,
      { runs: RUNS, eventsPerRun: 12, from: NOW - 30 * DAY, to: NOW, concurrency: 4 },
      (done) => done % 10_000 === 0 && console.log(`  ${done} runs written`),
    );
    console.log(`store: ${RUNS.toLocaleString("en-US")} runs of 12 events, written in ${seconds(t0).toFixed(1)} s`);
  }
  const rows: BenchRow[] = [];
  const floor = medianTraceRun(["--version"]);
  const measure = (name: string, args: string[]) => {
    const run = medianTraceRun(["--store", store, ...args]);
    rows.push({
      measure: `${name} (${RUNS.toLocaleString("en-US")} runs)`,
      unit: "s",
      harnessx: run.seconds,
      anchor: floor.seconds,
      anchorName: "trace --version",
      note: `${run.maxRssMb.toFixed(0)} MB; ${(run.seconds - floor.seconds).toFixed(3)} s over the floor`,
      aim: { on: "value", op: "<=", target: floor.seconds + 0.2 },
    });
  };
  // The first listing after the runs were written also brings the catalog level with the folders.
  runTraceTimed(["--store", store, "ls", "--limit", "1"]);
  for (const when of ["as the writers left it", "after compactCatalog"]) {
    if (when === "after compactCatalog") {
      const t1 = process.hrtime.bigint();
      await compactCatalog(store, { graceMs: 0 });
      rows.push({ measure: `compactCatalog (${RUNS.toLocaleString("en-US")} runs)`, unit: "s", harnessx: seconds(t1) });
    }
    measure(`trace ls, ${when}`, ["ls"]);
    measure(`trace ls --limit 20, ${when}`, ["ls", "--limit", "20"]);
    measure(`trace ls --status failed --limit 20, ${when}`, ["ls", "--status", "failed", "--limit", "20"]);
    measure(`trace summary last-failed, ${when}`, ["summary", "last-failed"]);
  }
  // Listing as it worked before the catalog: every run.json read and parsed, in-process.
  const t2 = process.hrtime.bigint();
  for (const { dir } of await runFolders(store)) await readRunManifest(dir);
  rows.push({
    measure: `reading every run.json, in-process (${RUNS.toLocaleString("en-US")} runs)`,
    unit: "s",
    harnessx: seconds(t2),
    note: "what listing read before the catalog",
  });
  report("catalog", rows);
} finally {
  if (!kept) rmSync(work, { recursive: true, force: true });
}
