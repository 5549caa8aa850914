/**
 * Result spilling on a large JSON array of objects (100 MB; 2 MB under BENCH_SMALL=1): spill
 * (store + envelope) and the first `query`, repeated queries, and peak RSS, beside the naive
 * approach (JSON.parse of the whole result and a JavaScript scan answering the same question).
 * Each approach runs in its own child process so their peak RSS figures do not mix.
 *
 *   node --expose-gc --import tsx test/bench/spill.bench.ts
 */
import { spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, ScriptedProvider, type ToolResult } from "@harnessx/core";
import { ArtifactStore } from "@harnessx/artifacts";
import { ResultSpillExtension } from "@harnessx/spill";
import { median, report, sized } from "./support/report.js";

const REGIONS = ["eu", "us", "apac", "latam"];
const QUESTION_SQL =
  "SELECT region, count(*) AS orders, round(sum(amount), 2) AS total FROM result WHERE active AND amount > 500 GROUP BY region ORDER BY region";
const REPEAT_SQL =
  "SELECT count(*) AS n, round(avg(amount), 2) AS avg_amount FROM result WHERE region = 'eu' AND note LIKE '%42%'";
const NEEDLE = "needle-in-haystack";

function row(i: number, needleAt: number): string {
  return JSON.stringify({
    id: i,
    customer: i === needleAt ? NEEDLE : `customer number ${i}`,
    region: REGIONS[i % REGIONS.length],
    amount: ((i * 7919) % 100_000) / 100,
    active: i % 3 !== 0,
    note: `lorem ipsum dolor sit amet ${i % 97}`,
    created: `2026-0${1 + (i % 9)}-1${i % 10}T10:00:00Z`,
  });
}

async function writeFixture(path: string, megabytes: number): Promise<{ rows: number; bytes: number }> {
  const target = megabytes * 1_000_000;
  const out = createWriteStream(path);
  const approxRows = Math.floor(target / 175);
  let bytes = 1;
  let rows = 0;
  out.write("[");
  while (bytes < target) {
    const batch: string[] = [];
    for (let k = 0; k < 10_000 && bytes < target; k++, rows++) {
      const text = (rows ? "," : "") + row(rows, Math.floor(approxRows * 0.77));
      batch.push(text);
      bytes += text.length;
    }
    if (!out.write(batch.join(""))) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  out.end("]");
  await new Promise<void>((resolve) => out.once("finish", () => resolve()));
  return { rows, bytes: bytes + 1 };
}

/**
 * Peak RSS over a phase, sampled every 5 ms (the spill's heavy work runs off the main
 * thread, in DuckDB and zstd, so the sampler keeps running). The baseline is taken after a
 * GC with the result already in memory as a string, as a tool would hand it over.
 */
class RssSampler {
  peak = 0;
  private timer = setInterval(() => this.sample(), 5);
  sample(): number {
    const rss = Math.round(process.memoryUsage().rss / 1e6);
    this.peak = Math.max(this.peak, rss);
    return rss;
  }
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }
}
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const baselineMb = () => {
  gc();
  return Math.round(process.memoryUsage().rss / 1e6);
};
const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;

async function spillMode(fixture: string, storeRoot: string): Promise<Record<string, unknown>> {
  // Held only until the spill, as an agent holds a tool's output until middleware replaces it.
  let content: string | undefined = readFileSync(fixture, "utf8");
  const baseline = baselineMb();
  const rss = new RssSampler();
  const extension = new ResultSpillExtension({ store: new ArtifactStore(storeRoot), retention: "session" });
  const agent = new Agent({ provider: new ScriptedProvider([]), extensions: [extension] });
  const readResult = agent.tools.get("read_result")!;
  const read = async (input: Record<string, unknown>) => {
    const call = { id: "bench", name: "read_result", input };
    return String(
      await readResult.execute(input, {
        toolCall: call,
        runId: "bench",
        signal: new AbortController().signal,
        idempotencyKey: "bench:bench",
      }),
    );
  };
  let t0 = performance.now();
  const spilled: ToolResult = await agent.middleware.afterToolExecution({
    toolCallId: "t1",
    name: "export_orders",
    content,
    isError: false,
  });
  const spillMs = ms(t0);
  content = undefined;
  const spillPeak = rss.sample() && rss.peak;
  const envelope = JSON.parse(spilled.content) as { resultId: string; rows: number };
  t0 = performance.now();
  const first = JSON.parse(await read({ resultId: envelope.resultId, op: "query", sql: QUESTION_SQL }));
  const firstQueryMs = ms(t0);
  const repeats: number[] = [];
  let repeated: unknown;
  for (let k = 0; k < 7; k++) {
    t0 = performance.now();
    repeated = JSON.parse(await read({ resultId: envelope.resultId, op: "query", sql: REPEAT_SQL })).rows;
    repeats.push(performance.now() - t0);
  }
  // The aim's RSS: spill and queries; the slice and search below build a pretty-printed view on purpose.
  const queryPeak = rss.peak;
  t0 = performance.now();
  const slice = await read({
    resultId: envelope.resultId,
    op: "slice",
    unit: "lines",
    start: Math.floor(envelope.rows * 4.5),
    count: 40,
  });
  const firstSliceMs = ms(t0);
  t0 = performance.now();
  await read({
    resultId: envelope.resultId,
    op: "slice",
    unit: "lines",
    start: Math.floor(envelope.rows * 2),
    count: 40,
  });
  const sliceMs = ms(t0);
  t0 = performance.now();
  const search = await read({ resultId: envelope.resultId, op: "search", pattern: NEEDLE });
  const searchMs = ms(t0);
  t0 = performance.now();
  const regex = await read({
    resultId: envelope.resultId,
    op: "search",
    pattern: `"customer": "needle-[a-z-]+"`,
    regex: true,
  });
  const regexMs = ms(t0);
  await agent.close();
  const peak = rss.stop();
  return {
    spillMs,
    firstQueryMs,
    spillPlusFirstQueryMs: Math.round(spillMs + firstQueryMs),
    repeatedQueryMedianMs: Math.round(median(repeats) * 10) / 10,
    firstSliceMs,
    sliceMs,
    searchMs,
    regexSearchMs: regexMs,
    peakRssMb: peak,
    spillPeakRssMb: spillPeak,
    queryPeakRssMb: queryPeak,
    baselineRssMb: baseline,
    envelopeChars: spilled.content.length,
    answer: first.rows,
    repeated,
    checks: {
      sliceOk: slice.startsWith("[lines "),
      searchFound: search.includes(NEEDLE),
      regexFound: regex.includes(NEEDLE),
    },
  };
}

function naiveMode(fixture: string): Record<string, unknown> {
  const content = readFileSync(fixture, "utf8");
  const baseline = baselineMb();
  const before = Math.round(process.memoryUsage().rss / 1e6);
  let t0 = performance.now();
  const rows = JSON.parse(content) as Array<{ region: string; amount: number; active: boolean; note: string }>;
  const parseMs = ms(t0);
  const afterParse = Math.round(process.memoryUsage().rss / 1e6);
  t0 = performance.now();
  const by = new Map<string, { orders: number; total: number }>();
  for (const r of rows) {
    if (!r.active || !(r.amount > 500)) continue;
    const e = by.get(r.region) ?? { orders: 0, total: 0 };
    e.orders++;
    e.total += r.amount;
    by.set(r.region, e);
  }
  const answer = [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([region, e]) => ({ region, orders: e.orders, total: Math.round(e.total * 100) / 100 }));
  const filterMs = ms(t0);
  const peak = Math.max(before, afterParse, Math.round(process.memoryUsage().rss / 1e6));
  return {
    parseMs,
    filterMs,
    parsePlusFilterMs: Math.round(parseMs + filterMs),
    peakRssMb: peak,
    baselineRssMb: baseline,
    answer,
    keep: rows.length,
  };
}

async function main(): Promise<void> {
  const [mode, fixture, storeRoot] = process.argv.slice(2);
  if (mode === "spill") return void process.stdout.write(JSON.stringify(await spillMode(fixture, storeRoot)));
  if (mode === "naive") return void process.stdout.write(JSON.stringify(naiveMode(fixture)));

  const megabytes = sized(100, 2);
  const dir = mkdtempSync(join(tmpdir(), "harnessx-spill-bench-"));
  try {
    const path = join(dir, "orders.json");
    const { rows, bytes } = await writeFixture(path, megabytes);
    console.log(
      `fixture: JSON array of ${rows.toLocaleString()} objects, ${(bytes / 1e6).toFixed(1)} MB; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")} on ${availableParallelism()} cores`,
    );
    const self = fileURLToPath(import.meta.url);
    const child = (args: string[]) => {
      const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", self, ...args], {
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      if (run.status !== 0) throw new Error(`${args[0]} run failed: ${run.stderr}`);
      return JSON.parse(run.stdout) as Record<string, number & unknown>;
    };
    const spill = child(["spill", path, join(dir, "store")]);
    const naive = child(["naive", path]);
    const same = JSON.stringify(spill.answer) === JSON.stringify(naive.answer);
    console.log(
      `  spill ${spill.spillMs} ms, first query ${spill.firstQueryMs} ms; slice ${spill.firstSliceMs} ms (first: pretty-prints), ${spill.sliceMs} ms (cached); search ${spill.searchMs} ms, regex ${spill.regexSearchMs} ms; peak RSS with slice/search views ${spill.peakRssMb} MB`,
    );
    console.log(
      `  naive: JSON.parse ${naive.parseMs} ms + scan ${naive.filterMs} ms, peak RSS ${naive.peakRssMb} MB; same answer: ${same}; checks ${JSON.stringify(spill.checks)}`,
    );
    report("spill", [
      {
        measure: `spill + first query, ${megabytes} MB JSON`,
        unit: "s",
        harnessx: spill.spillPlusFirstQueryMs / 1000,
        anchor: naive.parsePlusFilterMs / 1000,
        anchorName: "JSON.parse + scan",
        aim: { on: "value", op: "<=", target: 1 },
      },
      {
        measure: "repeat query (median of 7)",
        unit: "ms",
        harnessx: spill.repeatedQueryMedianMs,
        aim: { on: "value", op: "<=", target: 50 },
      },
      {
        measure: "spill RSS (peak over spill and queries)",
        unit: "MB",
        harnessx: spill.queryPeakRssMb,
        anchor: naive.peakRssMb,
        anchorName: "JSON.parse + scan",
        aim: { on: "value", op: "<", target: 500 },
        note: `the ${megabytes} MB result held as a string: baseline ${spill.baselineRssMb} MB`,
      },
    ]);
    if (!same || !Object.values(spill.checks as unknown as Record<string, boolean>).every(Boolean))
      process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
