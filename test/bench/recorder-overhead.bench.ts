// Recorder overhead on the runs users make: a ScriptedProvider agent calling a tool that returns
// ~2 KB of text, with and without the flight recorder (default options), `close()` included,
// measured side by side in one process. Short runs are interleaved in pairs; the ratio is of medians.
// Run: npx tsx test/bench/recorder-overhead.bench.ts
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { FlightRecorderExtension, readRun, runDirOf } from "@harnessx/recorder";
import { prose, tempStore } from "./support/recording.js";
import { median, report, sized } from "./support/report.js";

const SHORT_ITERATIONS = 50;
const PAIRS = sized(30, 3);
const LONG_ITERATIONS = sized(2_000, 100);
const LONG_PAIRS = sized(5, 1);

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
  const steps: ScriptStep[] = Array.from({ length: iterations }, (_, i) => ({
    toolCalls: [{ name: "search_docs", input: { query: `query ${i}` } }],
  }));
  steps.push({ text: "done" });
  const recorder = dir === undefined ? undefined : new FlightRecorderExtension({ dir });
  const started = performance.now();
  const agent = new Agent({
    limits: { maxIterations: iterations + 1 },
    provider: new ScriptedProvider(steps),
    tools: [search],
    extensions: recorder ? [recorder] : [],
  });
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
function serializationFloorMs(events: readonly unknown[]): number {
  const started = performance.now();
  let chars = 0;
  for (const event of events) chars += JSON.stringify(event).length;
  return chars > 0 ? performance.now() - started : NaN;
}

let floorRuns = 0;

/**
 * The same, plus creating the files a recorded run is made of on this disk, as the recorder
 * does (a run directory with its `segments` folder; a segment, its sidecar and `run.json`, each
 * written to a temporary and renamed), with the segment left uncompressed: no redaction, no
 * zstd, no hashing. The least any recorder that writes each run durably adds.
 */
async function filesFloorMs(dir: string, events: readonly unknown[]): Promise<number> {
  const started = performance.now();
  const lines = events.map((event) => `${JSON.stringify(event)}\n`).join("");
  const segments = join(dir, "floor", `run-${++floorRuns}`, "segments");
  await fs.mkdir(segments, { recursive: true });
  const files: Array<[string, string]> = [
    [join(segments, "000001.ndjson"), lines],
    [join(segments, "000001.ndjson.sha256"), "{}\n"],
    [join(segments, "..", "run.json"), "{}\n"],
  ];
  await Promise.all(files.map(([path, data]) => fs.writeFile(`${path}.tmp`, data)));
  for (const [path] of files) await fs.rename(`${path}.tmp`, path);
  return performance.now() - started;
}

const store = tempStore("hx-bench-overhead-");
try {
  for (let i = 0; i < 5; i++) {
    await timedRun(SHORT_ITERATIONS, undefined); // warm-up (JIT)
    await timedRun(SHORT_ITERATIONS, store.dir);
  }
  const { events } = await readRun(runDirOf(store.dir, lastRunId));
  const bare: number[] = [];
  const recorded: number[] = [];
  const serializing: number[] = [];
  const writingFiles: number[] = [];
  // The floors are measured inside the pairs, under the same conditions (disk, heap) as the runs.
  for (let pair = 0; pair < PAIRS; pair++) {
    bare.push(await timedRun(SHORT_ITERATIONS, undefined));
    recorded.push(await timedRun(SHORT_ITERATIONS, store.dir));
    serializing.push(serializationFloorMs(events));
    writingFiles.push(await filesFloorMs(store.dir, events));
  }
  const longBares: number[] = [];
  const longRecordeds: number[] = [];
  const longFloors: number[] = [];
  for (let pair = 0; pair < LONG_PAIRS; pair++) {
    longBares.push(await timedRun(LONG_ITERATIONS, undefined));
    longRecordeds.push(await timedRun(LONG_ITERATIONS, store.dir));
    longFloors.push(await filesFloorMs(store.dir, (await readRun(runDirOf(store.dir, lastRunId))).events));
  }
  const [longBare, longRecorded, longFloor] = [median(longBares), median(longRecordeds), median(longFloors)];
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
      harnessx: median(bare) + median(serializing),
      anchor: median(bare),
      anchorName: "bare run",
      note: "the least any recorder on the agent's thread adds",
    },
    {
      measure: `floor: bare run + serializing it and creating its files (2 directories, 3 files written and renamed; uncompressed, no redaction)`,
      unit: "ms",
      harnessx: median(bare) + median(writingFiles),
      anchor: median(bare),
      anchorName: "bare run",
      note: "the least any recorder that writes each run durably adds",
    },
    {
      measure: `recorded run, ${LONG_ITERATIONS.toLocaleString("en-US")} iterations, 2 KB results, close() included (median of ${LONG_PAIRS} pairs)`,
      unit: "ms",
      harnessx: longRecorded,
      anchor: longBare,
      anchorName: "bare run",
      aim: { on: "ratio", op: "<=", target: 1.25 },
    },
    {
      measure: `floor: that bare run + serializing it and creating its files (as above)`,
      unit: "ms",
      harnessx: longBare + longFloor,
      anchor: longBare,
      anchorName: "bare run",
      note: "the least any recorder that writes each run durably adds",
    },
  ]);
} finally {
  store.cleanup();
}
