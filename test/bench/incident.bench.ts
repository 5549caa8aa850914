// The incident loop on a long run (issue 15): one recorded run of 16,700 tool iterations (about
// 100k events, 2 KB results, 17 failing calls, history condensed at 50k tokens), then every
// `trace` command an on-call engineer runs on it, each in its own process as a user runs it,
// timed with its peak memory. The anchor of replay is the original run, recorded in this process.
// Run: npx tsx test/bench/incident.bench.ts
// INCIDENT_BENCH_ONLY=show,export runs only the commands whose label contains one of the words (no render, no replay);
// INCIDENT_BENCH_KEEP=1 leaves the store in place and prints where it is.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { Agent, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { Redactor } from "@harnessx/core/extension";
import { zstdCompress, zstdDecompress } from "@harnessx/artifacts";
import { FlightRecorderExtension, runDirOf } from "@harnessx/recorder";
import { prose, tempStore } from "./support/recording.js";
import { report, sized, type BenchRow } from "./support/report.js";
import { runTraceTimed } from "./support/trace-process.js";

const ITERATIONS = sized(16_700, 300);
const FAIL_EVERY = Math.ceil(ITERATIONS / 17);

const RESULTS = Array.from({ length: 500 }, (_, i) => `results for query ${i}: ${prose(i, 330)}`);
const search = tool({
  name: "search_docs",
  description: "searches the documentation",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  execute: ({ query }: { query: string }) => {
    const i = Number(query.slice(6));
    if (i % FAIL_EVERY === FAIL_EVERY - 1) throw new Error(`search backend timed out on shard ${i % 7}`);
    return RESULTS[i % RESULTS.length];
  },
});

const CHROMIUM = "/usr/bin/chromium";

/** Seconds to decompress every sealed segment of a run and JSON.parse each line, in this process: what any reader of every event pays. */
async function parseEverything(runDir: string): Promise<number> {
  const dir = join(runDir, "segments");
  const started = performance.now();
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith(".zst"))
    .sort()) {
    const text = (await zstdDecompress(readFileSync(join(dir, name)))).toString("utf8");
    for (const line of text.split("\n")) if (line) JSON.parse(line);
  }
  return (performance.now() - started) / 1000;
}

/**
 * Seconds for the work any scrub of the run does, in this process: decompress and JSON.parse
 * every line, redact every value (core's `Redactor`, default rules, one for the run so repeated
 * texts are redacted once), serialize each line again and compress the result.
 */
async function scrubEverything(runDir: string): Promise<number> {
  const dir = join(runDir, "segments");
  const redactor = new Redactor();
  const started = performance.now();
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith(".zst"))
    .sort()) {
    const text = (await zstdDecompress(readFileSync(join(dir, name)))).toString("utf8");
    const out: string[] = [];
    for (const line of text.split("\n")) if (line) out.push(JSON.stringify(redactor.redact(JSON.parse(line), "", [])));
    await zstdCompress(Buffer.from(out.join("\n")));
  }
  return (performance.now() - started) / 1000;
}

/** Seconds from opening the report until the page says it has drawn itself; undefined without Chromium. */
async function renderSeconds(path: string): Promise<number | undefined> {
  if (!existsSync(CHROMIUM)) {
    console.log(`  (report render not measured: no ${CHROMIUM}; apt-get install chromium)`);
    return undefined;
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const started = performance.now();
    await page.goto(pathToFileURL(path).href);
    await page.locator("body[data-ready=true]").waitFor({ timeout: 120_000 });
    return (performance.now() - started) / 1000;
  } finally {
    await browser.close();
  }
}

const store = tempStore("hx-bench-incident-");
try {
  const steps: ScriptStep[] = Array.from({ length: ITERATIONS }, (_, i) => ({
    toolCalls: [{ name: "search_docs", input: { query: `query ${i}` } }],
    usage: { inputTokens: 900, outputTokens: 20 },
  }));
  steps.push({ text: "done" });
  const started = performance.now();
  const agent = new Agent({
    context: { contextBudgetTokens: 50_000 },
    limits: { maxIterations: ITERATIONS + 1 },
    provider: new ScriptedProvider(steps),
    tools: [search],
    extensions: [new FlightRecorderExtension({ dir: store.dir })],
  });
  const result = await agent.run("find how retries work");
  await agent.close();
  const recordedSeconds = (performance.now() - started) / 1000;
  if (result.status !== "completed") throw new Error(`run ${result.status}: ${result.error?.message}`);
  const run = result.runId;
  const at = (name: string) => join(store.dir, name);
  const trace = (...args: string[]) => runTraceTimed(["--store", store.dir, ...args]);

  const events = (JSON.parse(trace("--json", "summary", run).output) as { events?: number }).events ?? NaN;
  const commands: Array<[string, string[]]> = [
    ["trace ls", ["ls"]],
    ["trace summary", ["summary", run]],
    ["trace show --errors", ["show", run, "--errors"]],
    ["trace show --limit 100 (first page)", ["show", run, "--limit", "100"]],
    [
      "trace query (group by kind)",
      ["query", run, "SELECT kind, count(*) AS n FROM events GROUP BY kind ORDER BY n DESC"],
    ],
    ["trace export", ["export", run, "-o", at("incident.tar")]],
    ["trace verify", ["verify", at("incident.tar")]],
    ["trace scrub", ["scrub", at("incident.tar"), "-o", at("scrubbed.tar")]],
    ["trace convert --to otlp", ["convert", run, "--to", "otlp", "-o", at("trace.jsonl")]],
    ["trace report", ["report", run, "-o", at("report.html")]],
  ];
  const only = process.env.INCIDENT_BENCH_ONLY?.split(",");
  // Floors measured beside the commands: a process start, and reading every event once.
  const rows: BenchRow[] = [
    { measure: "floor: trace --version (process start, no run read)", unit: "s", harnessx: trace("--version").seconds },
    {
      measure: `floor: decompress + JSON.parse every line of the run, in-process`,
      unit: "s",
      harnessx: await parseEverything(runDirOf(store.dir, run)),
    },
    {
      measure: `floor of scrub: decompress, parse, redact every value, serialize and compress every line, in-process`,
      unit: "s",
      harnessx: await scrubEverything(runDirOf(store.dir, run)),
    },
  ];
  for (const [label, args] of commands) {
    if (only && !only.some((word) => label.includes(word))) continue;
    const m = trace(...args);
    rows.push({
      measure: `${label}, ${events.toLocaleString("en-US")} events`,
      unit: "s",
      harnessx: m.seconds,
      aim: { on: "value", op: "<=", target: 1 },
    });
    rows.push({
      measure: `${label}, peak RSS`,
      unit: "MB",
      harnessx: m.maxRssMb,
      aim: { on: "value", op: "<", target: 512 },
    });
  }
  if (only) report("incident", rows);
  else await renderAndReplay(rows, { run, recordedSeconds, at, trace });
} finally {
  if (process.env.INCIDENT_BENCH_KEEP) console.log(`store kept: ${store.dir}`);
  else store.cleanup();
}

/** The report's size and render, and replay against the original run. */
async function renderAndReplay(
  rows: BenchRow[],
  {
    run,
    recordedSeconds,
    at,
    trace,
  }: {
    run: string;
    recordedSeconds: number;
    at: (name: string) => string;
    trace: (...args: string[]) => ReturnType<typeof runTraceTimed>;
  },
): Promise<void> {
  rows.push({
    measure: "trace report, HTML file size",
    unit: "MB",
    harnessx: statSync(at("report.html")).size / 1e6,
    aim: { on: "value", op: "<", target: 10 },
  });
  const render = await renderSeconds(at("report.html"));
  if (render !== undefined)
    rows.push({
      measure: "trace report, opened in headless Chromium until drawn (timeline, event list)",
      unit: "s",
      harnessx: render,
      aim: { on: "value", op: "<", target: 2 },
    });

  const replay = trace("--json", "replay", run);
  const outcome = JSON.parse(replay.output) as { reproduced?: boolean; replayedCalls?: number; divergence?: unknown };
  if (!outcome.reproduced) throw new Error(`replay did not reproduce: ${JSON.stringify(outcome.divergence)}`);
  const calls = outcome.replayedCalls ?? 0;
  rows.push({
    measure: `trace replay, ${calls.toLocaleString("en-US")} model calls (condensed on the way), process start included`,
    unit: "calls/s",
    harnessx: calls / replay.seconds,
    anchor: calls / recordedSeconds,
    anchorName: "the original run, recorded",
    aim: { on: "value", op: ">=", target: 2_000 },
    note: `${replay.seconds.toFixed(2)} s, reproduced`,
  });
  rows.push({
    measure: "trace replay, peak RSS",
    unit: "MB",
    harnessx: replay.maxRssMb,
    aim: { on: "value", op: "<", target: 512 },
  });
  report("incident", rows);
}
