// Recorder overhead on the runs users make: a ScriptedProvider agent calling a tool that returns
// ~2 KB of text, with and without the flight recorder (default options), `close()` included,
// measured side by side in one process. Short runs are interleaved in pairs; the ratio is of medians.
// Run: npx tsx test/bench/recorder-overhead.bench.ts
import { Agent, ALL_HOOK_EVENTS, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { FlightRecorderExtension, readRun, runDirOf } from "@harnessx/recorder";
import { prose, tempStore } from "./support/recording.js";
import { median, report, sized } from "./support/report.js";

const SHORT_ITERATIONS = 50;
const PAIRS = sized(30, 3);
const LONG_ITERATIONS = sized(2_000, 100);

/** ~2 KB of varied text per call, as a search or file-read tool returns (made up front: the tool itself costs nothing). */
const RESULTS = Array.from({ length: LONG_ITERATIONS }, (_, i) => `results for query ${i}: ${prose(i, 330)}`);
const search = tool({
  name: "search_docs",
  description: "searches the documentation",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  execute: ({ query }: { query: string }) => RESULTS[Number(query.slice(6)) % RESULTS.length],
});

let lastRunId = "";

async function timedRun(iterations: number, dir: string | undefined): Promise<number> {
  const steps: ScriptStep[] = Array.from({ length: iterations }, (_, i) => ({ toolCalls: [{ name: "search_docs", input: { query: `query ${i}` } }] }));
  steps.push({ text: "done" });
  const recorder = dir === undefined ? undefined : new FlightRecorderExtension({ dir });
  const started = performance.now();
  const agent = new Agent({ provider: new ScriptedProvider(steps), tools: [search], extensions: recorder ? [recorder] : [], maxIterations: iterations + 1 });
  const result = await agent.run("find how retries work");
  await agent.close();
  const ms = performance.now() - started;
  if (result.status !== "completed") throw new Error(`run ${result.status}: ${result.error?.message}`);
  if (recorder?.failed) throw recorder.failed;
  lastRunId = result.runId;
  return ms;
}

/**
 * The floor of any recorder on the agent's thread: serializing once what the recorder writes for
 * such a run (its recorded events, parsed back), with no redaction, files or compression. Its
 * ratio to the bare run is the least a same-thread recording of these events can cost here.
 */
async function serializationFloorMs(dir: string, runId: string): Promise<number> {
  const read = await readRun(runDirOf(dir, runId));
  const started = performance.now();
  let chars = 0;
  for (const event of read.events) chars += JSON.stringify(event).length;
  return chars > 0 ? performance.now() - started : NaN;
}

const store = tempStore("hx-bench-overhead-");
try {
  for (let i = 0; i < 5; i++) {
    await timedRun(SHORT_ITERATIONS, undefined); // warm-up (JIT)
    await timedRun(SHORT_ITERATIONS, store.dir);
  }
  const bare: number[] = [];
  const recorded: number[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    bare.push(await timedRun(SHORT_ITERATIONS, undefined));
    recorded.push(await timedRun(SHORT_ITERATIONS, store.dir));
  }
  const floors: number[] = [];
  await timedRun(SHORT_ITERATIONS, store.dir);
  for (let i = 0; i < PAIRS; i++) floors.push(await serializationFloorMs(store.dir, lastRunId));
  const longBare = await timedRun(LONG_ITERATIONS, undefined);
  const longRecorded = await timedRun(LONG_ITERATIONS, store.dir);
  report("recorder-overhead", [
    {
      measure: `recorded run, ${SHORT_ITERATIONS} iterations, 2 KB results, close() included (median of ${PAIRS} pairs)`,
      unit: "ms",
      harnessx: median(recorded),
      anchor: median(bare),
      anchorName: "bare run",
      aim: { on: "ratio", op: "<=", target: 1.25 },
    },
    {
      measure: `floor: bare run + JSON.stringify of what the recorder writes for it (no redaction, files or compression)`,
      unit: "ms",
      harnessx: median(bare) + median(floors),
      anchor: median(bare),
      anchorName: "bare run",
      note: "the least any recorder on the agent's thread adds",
    },
    {
      measure: `recorded run, ${LONG_ITERATIONS.toLocaleString("en-US")} iterations, 2 KB results, close() included`,
      unit: "ms",
      harnessx: longRecorded,
      anchor: longBare,
      anchorName: "bare run",
      aim: { on: "ratio", op: "<=", target: 1.25 },
    },
  ]);
} finally {
  store.cleanup();
}
