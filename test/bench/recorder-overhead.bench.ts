// Recorder overhead (issue 4): the 10,000-iteration ScriptedProvider run with a no-op tool,
// with and without the flight recorder, measured side by side (alternating) in one process.
// Run: npx tsx test/bench/recorder-overhead.bench.ts [iterations=10000] [rounds=2]
import { Agent, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { FlightRecorderExtension, RecordingStore } from "@harnessx/recorder";
import { fmt, tempStore } from "./recorder-bench-support.js";

const iterations = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 2);

const noop = tool({ name: "noop", description: "does nothing", inputSchema: { type: "object", properties: { i: { type: "number" } } }, execute: () => "ok" });

async function runOnce(withRecorder: boolean): Promise<{ seconds: number; events: number }> {
  const steps: ScriptStep[] = Array.from({ length: iterations }, (_, i) => ({ toolCalls: [{ name: "noop", input: { i } }] }));
  steps.push({ text: "done" });
  const store = tempStore("hx-bench-overhead-");
  try {
    const recorder = withRecorder ? new FlightRecorderExtension({ dir: store.dir }) : undefined;
    const agent = new Agent({ provider: new ScriptedProvider(steps), tools: [noop], extensions: recorder ? [recorder] : [], maxIterations: iterations + 1, contextBudgetTokens: 50_000 });
    const started = performance.now();
    const result = await agent.run("go");
    const seconds = (performance.now() - started) / 1000;
    await agent.close();
    if (result.status !== "completed") throw new Error(`run ${result.status}: ${result.error?.message}`);
    if (recorder?.failed) throw recorder.failed;
    const events = recorder ? (await new RecordingStore(store.dir).getRun(result.runId)).events : 0;
    return { seconds, events };
  } finally {
    store.cleanup();
  }
}

await runOnce(false); // warm-up (JIT)
await runOnce(true);
const without: number[] = [];
const withRec: number[] = [];
let events = 0;
for (let r = 0; r < rounds; r++) {
  without.push((await runOnce(false)).seconds);
  const measured = await runOnce(true);
  withRec.push(measured.seconds);
  events = measured.events;
}
const best = (xs: number[]) => Math.min(...xs);
console.log(`recorder overhead: ${fmt(iterations)}-iteration ScriptedProvider run, no-op tool, best of ${rounds}`);
console.log(`  without recorder   ${fmt(best(without), 2)} s   (${fmt(iterations / best(without))} iterations/s)`);
console.log(`  with recorder      ${fmt(best(withRec), 2)} s   (${fmt(events)} events recorded, all sealed)`);
console.log(`  ratio with/without ${fmt(best(withRec) / best(without), 2)}   (target < 1.25)`);
