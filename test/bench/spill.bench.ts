/**
 * Result spilling on a large JSON array of objects (default 100 MB; SPILL_BENCH_MB=20 for a
 * quick run): spill (store + envelope), first and repeated `query`, `slice`, `search`, and
 * peak RSS, side by side with the naive approach (JSON.parse of the whole result and a
 * JavaScript filter answering the same question). Each approach runs in its own child
 * process so their peak RSS figures do not mix.
 *
 *   npx tsx test/bench/spill.bench.ts
 */
import { spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, ScriptedProvider, type ToolResult } from "@harnessx/core";
import { ArtifactStore } from "@harnessx/artifacts";
import { ResultSpillExtension } from "@harnessx/spill";
import { lockSettings, resolveLimits, ResultTable } from "@harnessx/spill/test-support";

const REGIONS = ["eu", "us", "apac", "latam"];
const QUESTION_SQL = "SELECT region, count(*) AS orders, round(sum(amount), 2) AS total FROM result WHERE active AND amount > 500 GROUP BY region ORDER BY region";
const REPEAT_SQL = "SELECT count(*) AS n, round(avg(amount), 2) AS avg_amount FROM result WHERE region = 'eu' AND note LIKE '%42%'";
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
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
    return String(await readResult.execute(input, { toolCall: call, runId: "bench", signal: new AbortController().signal }));
  };
  let t0 = performance.now();
  const spilled: ToolResult = await agent.middleware.afterToolExecution({ toolCallId: "t1", name: "export_orders", content, isError: false });
  const spillMs = ms(t0);
  content = undefined;
  const spillPeak = rss.sample() && rss.peak;
  const envelope = JSON.parse(spilled.content) as { resultId: string; rows: number };
  t0 = performance.now();
  const first = JSON.parse(await read({ resultId: envelope.resultId, op: "query", sql: QUESTION_SQL }));
  const firstQueryMs = ms(t0);
  const queryPeak = rss.peak;
  const repeats: number[] = [];
  let repeated: unknown;
  for (let k = 0; k < 7; k++) {
    t0 = performance.now();
    repeated = JSON.parse(await read({ resultId: envelope.resultId, op: "query", sql: REPEAT_SQL })).rows;
    repeats.push(performance.now() - t0);
  }
  t0 = performance.now();
  const slice = await read({ resultId: envelope.resultId, op: "slice", unit: "lines", start: Math.floor(envelope.rows * 4.5), count: 40 });
  const firstSliceMs = ms(t0);
  t0 = performance.now();
  await read({ resultId: envelope.resultId, op: "slice", unit: "lines", start: Math.floor(envelope.rows * 2), count: 40 });
  const sliceMs = ms(t0);
  t0 = performance.now();
  const search = await read({ resultId: envelope.resultId, op: "search", pattern: NEEDLE });
  const searchMs = ms(t0);
  t0 = performance.now();
  const regex = await read({ resultId: envelope.resultId, op: "search", pattern: `"customer": "needle-[a-z-]+"`, regex: true });
  const regexMs = ms(t0);
  await agent.close();
  const peak = rss.stop();
  const parts = await spillParts(fixture, storeRoot);
  return {
    spillMs, firstQueryMs, spillPlusFirstQueryMs: Math.round(spillMs + firstQueryMs), repeatedQueryMedianMs: Math.round(median(repeats) * 10) / 10,
    firstSliceMs, sliceMs, searchMs, regexSearchMs: regexMs, peakRssMb: peak, spillPeakRssMb: spillPeak, queryPeakRssMb: queryPeak, baselineRssMb: baseline,
    envelopeChars: spilled.content.length, answer: first.rows, repeated, parts,
    checks: { sliceOk: slice.startsWith("[lines "), searchFound: search.includes(NEEDLE), regexFound: regex.includes(NEEDLE) },
  };
}

/** The spill's two branches timed alone, one after the other: which one is the critical path. */
async function spillParts(fixture: string, storeRoot: string): Promise<Record<string, number>> {
  const bytes = readFileSync(fixture);
  let t0 = performance.now();
  await new ArtifactStore(join(storeRoot, "parts")).put(bytes);
  const storePutMs = ms(t0);
  const tempDir = mkdtempSync(join(tmpdir(), "harnessx-spill-parts-"));
  t0 = performance.now();
  const table = await ResultTable.load({ kind: "json_array_of_objects", data: bytes }, { tempDir, lock: lockSettings(resolveLimits()) });
  const duckdbLoadMs = ms(t0);
  await table.close();
  rmSync(tempDir, { recursive: true, force: true });
  return { storePutMs, duckdbLoadMs };
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
  const answer = [...by.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([region, e]) => ({ region, orders: e.orders, total: Math.round(e.total * 100) / 100 }));
  const filterMs = ms(t0);
  const peak = Math.max(before, afterParse, Math.round(process.memoryUsage().rss / 1e6));
  return { parseMs, filterMs, parsePlusFilterMs: Math.round(parseMs + filterMs), peakRssMb: peak, baselineRssMb: baseline, answer, keep: rows.length };
}

async function main(): Promise<void> {
  const [mode, fixture, storeRoot] = process.argv.slice(2);
  if (mode === "spill") return void process.stdout.write(JSON.stringify(await spillMode(fixture, storeRoot)));
  if (mode === "naive") return void process.stdout.write(JSON.stringify(naiveMode(fixture)));

  const megabytes = Number(process.env.SPILL_BENCH_MB ?? 100);
  const dir = mkdtempSync(join(tmpdir(), "harnessx-spill-bench-"));
  try {
    const path = join(dir, "orders.json");
    const { rows, bytes } = await writeFixture(path, megabytes);
    console.log(`fixture: JSON array of ${rows.toLocaleString()} objects, ${(bytes / 1e6).toFixed(1)} MB`);
    const self = fileURLToPath(import.meta.url);
    const child = (args: string[]) => {
      const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", self, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      if (run.status !== 0) throw new Error(`${args[0]} run failed: ${run.stderr}`);
      return JSON.parse(run.stdout) as Record<string, number & unknown>;
    };
    const spill = child(["spill", path, join(dir, "store")]);
    const naive = child(["naive", path]);
    const same = JSON.stringify(spill.answer) === JSON.stringify(naive.answer);
    console.log(`same answer from both: ${same}`);
    console.table({
      "spill (store + envelope)": { ms: spill.spillMs },
      "first query": { ms: spill.firstQueryMs },
      "spill + first query": { ms: spill.spillPlusFirstQueryMs, aim: "< 1000" },
      "repeated query (median of 7)": { ms: spill.repeatedQueryMedianMs, aim: "< 50" },
      "slice (first: pretty-prints)": { ms: spill.firstSliceMs },
      "slice (cached view)": { ms: spill.sliceMs },
      "search literal": { ms: spill.searchMs },
      "search regex (worker)": { ms: spill.regexSearchMs },
      "naive JSON.parse": { ms: naive.parseMs },
      "naive JS filter": { ms: naive.filterMs },
      "naive parse + filter": { ms: naive.parsePlusFilterMs },
    });
    console.table({
      "spill: spill + first query": { peakRssMb: spill.queryPeakRssMb, baselineRssMb: spill.baselineRssMb, aboveBaselineMb: spill.queryPeakRssMb - spill.baselineRssMb, aim: "< 500" },
      "spill: all ops (incl. slice/search view)": { peakRssMb: spill.peakRssMb, baselineRssMb: spill.baselineRssMb, aboveBaselineMb: spill.peakRssMb - spill.baselineRssMb },
      "naive: JSON.parse + filter": { peakRssMb: naive.peakRssMb, baselineRssMb: naive.baselineRssMb, aboveBaselineMb: naive.peakRssMb - naive.baselineRssMb },
    });
    console.log(`ratios: naive parse+filter / (spill + first query) = ${(naive.parsePlusFilterMs / spill.spillPlusFirstQueryMs).toFixed(2)}x; naive parse+filter / repeated query = ${(naive.parsePlusFilterMs / spill.repeatedQueryMedianMs).toFixed(0)}x; peak RSS naive / spill = ${(naive.peakRssMb / spill.peakRssMb).toFixed(2)}x`);
    const parts = spill.parts as unknown as Record<string, number>;
    console.log(`spill branches alone (they run in parallel): store.put (sha256 + zstd + write) ${parts.storePutMs} ms, DuckDB table load (temp file + read_json) ${parts.duckdbLoadMs} ms`);
    console.log(`machine load average while running: ${loadavg().map((l) => l.toFixed(2)).join(" ")} on ${availableParallelism()} cores`);
    console.log(`envelope: ${spill.envelopeChars} characters; checks: ${JSON.stringify(spill.checks)}`);
    if (!same) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
