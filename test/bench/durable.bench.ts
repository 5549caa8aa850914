// Durable runs' overhead per tool iteration: a long ScriptedProvider run (default options, a few
// tools returning 2-8 KB of JSON-ish text, one `never` tool called in one step in ten), with and
// without `durable` (fsync and group), `close()` included, the three interleaved in rounds (the
// order rotates each round) and measured side by side in one process; plus the floor of one
// synced append on this disk and the journal's bytes per iteration.
// Run: node scripts/run-bench.mjs durable (BENCH_SMALL=1: a few seconds).
import { promises as fs, statSync } from "node:fs";
import { join } from "node:path";
import {
  Agent,
  FileDurableStore,
  ScriptedProvider,
  tool,
  type Durability,
  type DurableStore,
  type ScriptStep,
} from "@harnessx/core";
import { prose, tempStore } from "./support/recording.js";
import { median, num, report, sized } from "./support/report.js";

const ITERATIONS = sized(200, 20);
const ROUNDS = sized(7, 1);
/** Synced appends timed per round for the floor. */
const FLOOR_SAMPLES = sized(50, 5);
/** Every tenth step calls the tool that must not run twice (its calls are synced even under `group`). */
const NEVER_EVERY = 10;

/** `engine`: durable, to a store that keeps nothing: the engine's share (lines made, redacted, committed, announced) without the disk's. */
type Variant = "bare" | Durability | "engine";
const VARIANTS: Variant[] = ["bare", "fsync", "group", "engine"];

/** Takes every line and keeps none: no user runs it; it splits a durable run's cost into the engine's and the disk's. */
class DiscardingStore implements DurableStore {
  async append(): Promise<void> {}
  async read(): Promise<undefined> {
    return undefined;
  }
  async close(): Promise<void> {}
}

/** A search hit list of `bytes` or so, as JSON text (seeded by `i`): what a search or file tool hands back. */
function jsonResult(i: number, bytes: number): string {
  const hits: Array<{ path: string; line: number; score: number; snippet: string }> = [];
  for (let h = 0; JSON.stringify(hits).length < bytes; h++)
    hits.push({
      path: `docs/guide/section-${(i * 7 + h) % 97}.md`,
      line: (i * 31 + h * 17) % 900,
      score: Math.round(1000 / (h + 1)) / 1000,
      snippet: prose(i * 101 + h, 40),
    });
  return JSON.stringify({ query: `query ${i}`, total: hits.length, hits });
}

/** 2-8 KB per call, made up front so the tools themselves cost nothing. */
const RESULTS = Array.from({ length: ITERATIONS }, (_, i) => jsonResult(i, 2048 + (((i * 2654435761) >>> 0) % 6144)));
const resultOf = (input: { i: number }) => RESULTS[input.i % RESULTS.length];
const schema = { type: "object", properties: { i: { type: "number" } }, required: ["i"] } as const;
const TOOLS = [
  tool({
    name: "search_docs",
    description: "searches the documentation",
    inputSchema: schema,
    replayPolicy: "safe",
    execute: resultOf,
  }),
  tool({
    name: "read_file",
    description: "reads a file",
    inputSchema: schema,
    replayPolicy: "safe",
    execute: resultOf,
  }),
  tool({
    name: "list_dir",
    description: "lists a folder",
    inputSchema: schema,
    replayPolicy: "safe",
    execute: resultOf,
  }),
  tool({
    name: "create_ticket",
    description: "files a ticket in the tracker",
    inputSchema: schema,
    replayPolicy: "never",
    execute: (input: { i: number }) => `{"ticket":"T-${input.i}","status":"open"}`,
  }),
];
const SAFE_TOOLS = ["search_docs", "read_file", "list_dir"];

/** The tool step `i` calls: one safe tool in turn, and the `never` one every NEVER_EVERY steps. */
function callOf(i: number): string {
  return i % NEVER_EVERY === NEVER_EVERY - 1 ? "create_ticket" : SAFE_TOOLS[i % SAFE_TOOLS.length];
}

interface Timed {
  ms: number;
  /** The run's journal: bytes and lines (none for the bare run). */
  journalBytes: number;
  journalLines: number;
}

let runs = 0;

/** One run of ITERATIONS tool steps and an answer, from building the agent to `close()`. */
async function timedRun(variant: Variant, dir: string): Promise<Timed> {
  const steps: ScriptStep[] = Array.from({ length: ITERATIONS }, (_, i) => ({
    toolCalls: [{ name: callOf(i), input: { i } }],
  }));
  steps.push({ text: "done" });
  const journals = join(dir, `${variant}-${++runs}`);
  const started = performance.now();
  const agent = new Agent({
    limits: { maxIterations: ITERATIONS + 1 },
    provider: new ScriptedProvider(steps),
    tools: TOOLS,
    ...(variant === "bare"
      ? {}
      : variant === "engine"
        ? { durable: { store: new DiscardingStore() } }
        : { durable: { store: new FileDurableStore(journals), durability: variant } }),
  });
  const result = await agent.run("find how retries work and file a ticket for each gap");
  await agent.close();
  const ms = performance.now() - started;
  if (result.status !== "completed") throw new Error(`${variant} run ${result.status}: ${result.error?.message}`);
  if (variant === "bare" || variant === "engine") return { ms, journalBytes: 0, journalLines: 0 };
  const journal = join(journals, `${result.runId}.ndjson`);
  const text = await fs.readFile(journal, "utf8");
  return { ms, journalBytes: statSync(journal).size, journalLines: text.split("\n").filter(Boolean).length };
}

/**
 * The floor of one synced commit here: `appendFile` + `datasync` of a `bytes`-long line through
 * one open handle, as the store does. The mean, not the median: `fdatasync` has a long tail on
 * this disk (a few slow syncs outweigh many fast ones), and a run pays every sync it makes.
 */
async function syncedAppendMs(dir: string, bytes: number, samples: number): Promise<number> {
  const line = `${JSON.stringify({ v: 1, at: Date.now(), phase: "tool_outcome", text: prose(samples, bytes / 6) }).slice(0, bytes - 2)}}\n`;
  const handle = await fs.open(join(dir, `floor-${++runs}.ndjson`), "a");
  try {
    const started = performance.now();
    for (let s = 0; s < samples; s++) {
      await handle.appendFile(line);
      await handle.datasync();
    }
    return (performance.now() - started) / samples;
  } finally {
    await handle.close();
  }
}

const scratch = tempStore("hx-bench-durable-");
try {
  // Warm-up (JIT, the redactor's first scans, the folder's first files).
  for (const variant of VARIANTS) await timedRun(variant, scratch.dir);
  const times: Record<Variant, number[]> = { bare: [], fsync: [], group: [], engine: [] };
  const overhead: Record<Exclude<Variant, "bare">, number[]> = { fsync: [], group: [], engine: [] };
  const floors: number[] = [];
  let journal: Timed = { ms: 0, journalBytes: 0, journalLines: 0 };
  let typicalLine = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order = VARIANTS.map((_, k) => VARIANTS[(k + round) % VARIANTS.length]);
    const timed = {} as Record<Variant, Timed>;
    for (const variant of order) timed[variant] = await timedRun(variant, scratch.dir);
    for (const variant of VARIANTS) times[variant].push(timed[variant].ms / ITERATIONS);
    for (const durability of ["fsync", "group", "engine"] as const)
      overhead[durability].push((timed[durability].ms - timed.bare.ms) / ITERATIONS);
    journal = timed.fsync;
    typicalLine = Math.round(journal.journalBytes / journal.journalLines);
    floors.push(await syncedAppendMs(scratch.dir, typicalLine, FLOOR_SAMPLES));
  }
  const bare = median(times.bare);
  const floor = median(floors);
  const resultBytes =
    RESULTS.reduce((sum, r, i) => sum + (callOf(i) === "create_ticket" ? 0 : r.length), 0) / ITERATIONS;
  // fsync: every commit is synced (the first step's run start and snapshot share one); group:
  // only the two around each `never` call, the 50 ms timer's and close's.
  const commits = (journal.journalLines - 1) / ITERATIONS;
  const perRun = `${ITERATIONS} tool iterations (1 in ${NEVER_EVERY} a \`never\` tool), 2-8 KB JSON results, close() included; median of ${ROUNDS} rounds, order rotated`;
  const row = (durability: Durability, target: number) => ({
    measure: `durable ${durability}: overhead per tool iteration`,
    unit: "ms",
    harnessx: median(overhead[durability]),
    anchor: bare,
    anchorName: "an iteration without durable",
    aim: { on: "value" as const, op: "<" as const, target },
    note: `${perRun}; ${num(median(times[durability]))} ms per iteration with it; its share beyond the engine's = ${num((median(overhead[durability]) - median(overhead.engine)) / floor)} synced appends`,
  });
  report("durable", [
    row("fsync", 2),
    row("group", 0.2),
    {
      measure: "durable, the engine's share: overhead per tool iteration journaling to a store that keeps nothing",
      unit: "ms",
      harnessx: median(overhead.engine),
      anchor: bare,
      anchorName: "an iteration without durable",
      note: "every line made, redacted and announced, none written: what the fsync and group rows add beyond this is the disk's",
    },
    {
      measure: `floor: one appendFile + datasync of a typical journal line (${typicalLine} B) on this disk`,
      unit: "ms",
      harnessx: floor,
      anchor: bare,
      anchorName: "an iteration without durable",
      note: `mean of ${FLOOR_SAMPLES} per round, inside the rounds, median of the rounds; the fsync run makes ${num(commits)} synced commits per iteration`,
    },
    {
      measure: "durable: journal bytes per tool iteration",
      unit: "B",
      harnessx: journal.journalBytes / ITERATIONS,
      anchor: resultBytes,
      anchorName: "the tool results' own bytes",
      note: `${num(journal.journalLines / ITERATIONS)} lines per iteration`,
    },
  ]);
} finally {
  scratch.cleanup();
}
