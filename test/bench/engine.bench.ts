// Engine overhead (issues 2 and 3): a long ScriptedProvider run with a no-op tool.
// Run: npx tsx test/bench/engine.bench.ts [iterations=10000]
import { Agent, ALL_HOOK_EVENTS, HookEvent, Middleware, MiddlewarePipeline, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";

const iterations = Number(process.argv[2] ?? 10_000);

interface Measure {
  seconds: number;
  rate: number;
  firstRate: number;
  lastRate: number;
  peakHeapMb: number;
}

async function measure(extras: { middleware: number; observers: number }): Promise<Measure> {
  const stamps: number[] = [];
  let peakHeap = 0;
  const steps: ScriptStep[] = Array.from({ length: iterations }, () => (_req, i) => {
    stamps.push(performance.now());
    if (i % 250 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    return { toolCalls: [{ name: "noop", input: { i } }] };
  });
  steps.push({ text: "done" });
  const noop = tool({ name: "noop", description: "does nothing", inputSchema: { type: "object", properties: { i: { type: "number" } } }, execute: () => "ok" });
  const pipeline = new MiddlewarePipeline();
  for (let i = 0; i < extras.middleware; i++) {
    pipeline.add(new (class NoOp extends Middleware {
      override async beforeLlmCall(m: Parameters<Middleware["beforeLlmCall"]>[0], t: Parameters<Middleware["beforeLlmCall"]>[1]) { return [m, t] as [typeof m, typeof t]; }
      override async afterLlmCall(r: Parameters<Middleware["afterLlmCall"]>[0]) { return r; }
      override async beforeToolExecution(c: Parameters<Middleware["beforeToolExecution"]>[0]) { return c; }
      override async afterToolExecution(r: Parameters<Middleware["afterToolExecution"]>[0]) { return r; }
    })());
  }
  const agent = new Agent({ provider: new ScriptedProvider(steps, { recordRequests: false }), tools: [noop], middleware: pipeline, maxIterations: iterations + 1, contextBudgetTokens: 50_000 });
  let observed = 0;
  for (let i = 0; i < extras.observers; i++) for (const e of ALL_HOOK_EVENTS) agent.hooks.on(e, () => void observed++);
  const started = performance.now();
  const result = await agent.run("go");
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== "completed") throw new Error(`run ${result.status}: ${result.error?.message}`);
  const span = Math.min(1000, Math.floor(iterations / 4));
  const rateOver = (a: number, b: number) => (b - a) / ((stamps[b] - stamps[a]) / 1000);
  return {
    seconds,
    rate: iterations / seconds,
    firstRate: rateOver(0, span),
    lastRate: rateOver(stamps.length - 1 - span, stamps.length - 1),
    peakHeapMb: peakHeap / 2 ** 20,
  };
}

function hookDispatchNs(observers: number): number {
  const agent = new Agent({ provider: new ScriptedProvider([]) });
  for (let i = 0; i < observers; i++) agent.hooks.on(HookEvent.LOOP_ITERATION_START, () => {});
  const n = 2_000_000;
  for (let i = 0; i < 100_000; i++) agent.hooks.emit(HookEvent.LOOP_ITERATION_START, { iteration: i });
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) agent.hooks.emit(HookEvent.LOOP_ITERATION_START, { iteration: i });
  return Number(process.hrtime.bigint() - t) / n;
}

const fmt = (m: Measure) =>
  `${m.rate.toFixed(0)} it/s over ${iterations} (${m.seconds.toFixed(2)} s); first ${m.firstRate.toFixed(0)} it/s, last ${m.lastRate.toFixed(0)} it/s (last/first ${(m.lastRate / m.firstRate).toFixed(2)}); peak heap ${m.peakHeapMb.toFixed(1)} MB`;

// Alternate the two configurations and keep the median of each, so JIT warm-up and GC
// timing do not favour whichever runs second.
const rounds = Number(process.env.ROUNDS ?? 3);
const bares: Measure[] = [];
const loads: Measure[] = [];
await measure({ middleware: 5, observers: 5 }); // warm-up
for (let r = 0; r < rounds; r++) {
  bares.push(await measure({ middleware: 0, observers: 0 }));
  loads.push(await measure({ middleware: 5, observers: 5 }));
}
const median = (ms: Measure[]) => ms.slice().sort((a, b) => a.seconds - b.seconds)[Math.floor(ms.length / 2)];
const bare = median(bares);
const loaded = median(loads);
console.log(`engine, no extensions:                 ${fmt(bare)}`);
console.log(`engine, 5 middleware + 5 observers/ev: ${fmt(loaded)}`);
console.log(`ratio loaded/bare (time):              ${(loaded.seconds / bare.seconds).toFixed(2)} (aim < 1.3)`);
console.log(`hook dispatch: ${hookDispatchNs(0).toFixed(1)} ns/event with 0 observers, ${hookDispatchNs(3).toFixed(1)} ns/event with 3 observers`);
