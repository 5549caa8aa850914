// Replay on a long run (issue 15): a recorded run of 16,700 tool iterations (the incident) with ~2 KB
// results and a 50,000-token context budget (so its history is condensed on the way), replayed by
// `trace replay` in its own process as a user runs it, beside the original run recorded in this one.
// Run: npx tsx test/bench/replay.bench.ts
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Agent, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { FlightRecorderExtension } from "@harnessx/recorder";
import { prose, tempStore } from "./support/recording.js";
import { report, sized } from "./support/report.js";

const ITERATIONS = sized(16_700, 300);
const BIN = fileURLToPath(new URL("../../cli/dist/bin.js", import.meta.url));

const RESULTS = Array.from({ length: 500 }, (_, i) => `results for query ${i}: ${prose(i, 330)}`);
const search = tool({
  name: "search_docs",
  description: "searches the documentation",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  execute: ({ query }: { query: string }) => RESULTS[Number(query.slice(6)) % RESULTS.length],
});

const store = tempStore("hx-bench-replay-");
try {
  const steps: ScriptStep[] = Array.from({ length: ITERATIONS }, (_, i) => ({ toolCalls: [{ name: "search_docs", input: { query: `query ${i}` } }], usage: { inputTokens: 900, outputTokens: 20 } }));
  steps.push({ text: "done" });
  const started = performance.now();
  const agent = new Agent({ provider: new ScriptedProvider(steps), tools: [search], contextBudgetTokens: 50_000, maxIterations: ITERATIONS + 1, extensions: [new FlightRecorderExtension({ dir: store.dir })] });
  const result = await agent.run("find how retries work");
  await agent.close();
  const recordedSeconds = (performance.now() - started) / 1000;
  if (result.status !== "completed") throw new Error(`run ${result.status}: ${result.error?.message}`);

  const replayStarted = performance.now();
  const replay = spawnSync(process.execPath, [BIN, "--store", store.dir, "--json", "replay", result.runId], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  const replaySeconds = (performance.now() - replayStarted) / 1000;
  const outcome = JSON.parse(replay.stdout || "{}") as { reproduced?: boolean; replayedCalls?: number; divergence?: unknown };
  if (replay.status !== 0 || !outcome.reproduced) throw new Error(`replay did not reproduce (exit ${replay.status}): ${replay.stderr} ${JSON.stringify(outcome.divergence)}`);
  const calls = outcome.replayedCalls ?? 0;
  report("replay", [
    {
      measure: `trace replay of a ${calls.toLocaleString("en-US")}-call run (2 KB results, condensed at 50k tokens), process start included`,
      unit: "calls/s",
      harnessx: calls / replaySeconds,
      anchor: calls / recordedSeconds,
      anchorName: "the original run, recorded",
      aim: { on: "value", op: ">=", target: 2_000 },
      note: `${replaySeconds.toFixed(2)} s, reproduced`,
    },
  ]);
} finally {
  store.cleanup();
}
