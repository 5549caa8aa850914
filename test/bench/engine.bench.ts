// Engine overhead (issues 2, 3 and 14): long ScriptedProvider runs with a no-op tool, with
// default options (no extra options: what a user gets), beside the AI SDK's generateText loop.
// Run: node --expose-gc --import tsx test/bench/engine.bench.ts (BENCH_SMALL=1: a few seconds).
import { Agent, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { ALL_HOOK_EVENTS, HookEvent, Middleware, MiddlewarePipeline } from "@harnessx/core/extension";
import { generateText, jsonSchema, stepCountIs, tool as aiTool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { median, report, sized, type BenchRow } from "./support/report.js";

const ITERATIONS = sized(10_000, 500);
const CONDENSE_ITERATIONS = sized(100_000, 2_000);
// The AI SDK resends (and re-validates) its whole history every step, so its loop is quadratic:
// it runs at a size that completes in a few seconds, and its rate is compared per step.
const AI_SDK_STEPS = sized(1_000, 100);
const ROUNDS = sized(3, 1);
/** Iterations per rate window for last/first: 1,000 at full size, a quarter of a small run. */
const WINDOW = Math.min(1_000, Math.floor(ITERATIONS / 4));

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

interface Measure {
  seconds: number;
  rate: number;
  firstRate: number;
  lastRate: number;
  peakHeapMb: number;
  condensed: number;
}

interface Setup {
  iterations: number;
  /** Extras for the loaded/bare row; none means default options. */
  middleware?: number;
  observers?: number;
  contextBudgetTokens?: number;
}

const noop = tool({
  name: "noop",
  description: "does nothing",
  inputSchema: { type: "object", properties: { i: { type: "number" } } },
  execute: () => "ok",
});

class NoOp extends Middleware {
  override async beforeLlmCall(
    m: Parameters<Middleware["beforeLlmCall"]>[0],
    t: Parameters<Middleware["beforeLlmCall"]>[1],
  ) {
    return [m, t] as [typeof m, typeof t];
  }
  override async afterLlmCall(r: Parameters<Middleware["afterLlmCall"]>[0]) {
    return r;
  }
  override async beforeToolExecution(c: Parameters<Middleware["beforeToolExecution"]>[0]) {
    return c;
  }
  override async afterToolExecution(r: Parameters<Middleware["afterToolExecution"]>[0]) {
    return r;
  }
}

/** One run of `iterations` tool turns and a final answer; heap sampled every 250 model calls. */
async function measure(setup: Setup): Promise<Measure> {
  const { iterations } = setup;
  const stamps = new Float64Array(iterations);
  let peakHeap = 0;
  // Step functions, not `iterations` reply objects: the script itself must not weigh on the heap.
  const step: ScriptStep = (_request, i) => {
    stamps[i] = performance.now();
    if (i % 250 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    return { toolCalls: [{ name: "noop", input: { i } }] };
  };
  const steps: ScriptStep[] = new Array<ScriptStep>(iterations).fill(step);
  steps.push({ text: "done" });
  const extras = setup.middleware !== undefined || setup.observers !== undefined;
  let agent: Agent;
  if (extras) {
    const pipeline = new MiddlewarePipeline();
    for (let i = 0; i < (setup.middleware ?? 0); i++) pipeline.add(new NoOp());
    agent = new Agent({
      limits: { maxIterations: iterations + 1 },
      context: { contextBudgetTokens: setup.contextBudgetTokens },
      provider: new ScriptedProvider(steps),
      tools: [noop],
      middleware: pipeline,
    });
    let observed = 0;
    for (let i = 0; i < (setup.observers ?? 0); i++)
      for (const e of ALL_HOOK_EVENTS) agent.hooks.on(e, () => void observed++);
  } else {
    agent = new Agent({
      limits: { maxIterations: iterations + 1 },
      provider: new ScriptedProvider(steps),
      tools: [noop],
    });
  }
  // Counting condensations observes CONTEXT_CONDENSED only, which the engine never waits on.
  let condensed = 0;
  agent.hooks.on(HookEvent.CONTEXT_CONDENSED, () => void condensed++);
  gc();
  const started = performance.now();
  const result = await agent.run("go");
  const seconds = (performance.now() - started) / 1000;
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  if (result.status !== "completed") throw new Error(`run ${result.status}: ${result.error?.message}`);
  const rateOver = (a: number, b: number) => (b - a) / ((stamps[b] - stamps[a]) / 1000);
  const span = Math.min(WINDOW, Math.floor(iterations / 4));
  return {
    seconds,
    rate: iterations / seconds,
    firstRate: rateOver(0, span),
    lastRate: rateOver(iterations - 1 - span, iterations - 1),
    peakHeapMb: peakHeap / 2 ** 20,
    condensed,
  };
}

/** The AI SDK's tool loop on its mock model: every step asks for one no-op tool call. */
async function aiSdkStepsPerSecond(steps: number): Promise<number> {
  let call = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [
        {
          type: "tool-call" as const,
          toolCallId: `call_${++call}`,
          toolName: "noop",
          input: JSON.stringify({ i: call }),
        },
      ],
      finishReason: { unified: "tool-calls" as const, raw: undefined },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 5, text: 5, reasoning: undefined },
      },
      warnings: [],
    }),
  });
  const tools = {
    noop: aiTool({
      description: "does nothing",
      inputSchema: jsonSchema<{ i?: number }>({ type: "object", properties: { i: { type: "number" } } }),
      execute: async () => "ok",
    }),
  };
  gc();
  const started = performance.now();
  const result = await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(steps) });
  const seconds = (performance.now() - started) / 1000;
  if (result.steps.length !== steps) throw new Error(`AI SDK ran ${result.steps.length} steps, not ${steps}`);
  return steps / seconds;
}

/** The median round by rate, so one GC-heavy or preempted round does not decide the figures. */
function medianRound(rounds: Measure[]): Measure {
  return rounds.slice().sort((a, b) => a.rate - b.rate)[Math.floor(rounds.length / 2)];
}

// Warm-up, one full-size run: on a busy 2-core machine the optimizing compiler needs more than a
// couple of thousand iterations, and the aim is the steady rate, not the compiler's.
await measure({ iterations: ITERATIONS });
const plain: Measure[] = [];
for (let r = 0; r < ROUNDS; r++) plain.push(await measure({ iterations: ITERATIONS }));
const run = medianRound(plain);
await aiSdkStepsPerSecond(Math.min(AI_SDK_STEPS, 100)); // warm-up
const aiSdk = median(
  await (async () => {
    const rates: number[] = [];
    for (let r = 0; r < ROUNDS; r++) rates.push(await aiSdkStepsPerSecond(AI_SDK_STEPS));
    return rates;
  })(),
);

const long = await measure({ iterations: CONDENSE_ITERATIONS });

// The loaded/bare comparison of issues 2-3, in its original setting (a 50,000-token budget),
// alternating the two so JIT warm-up and GC timing favour neither.
const bare: number[] = [];
const loaded: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  bare.push(
    (await measure({ iterations: ITERATIONS, middleware: 0, observers: 0, contextBudgetTokens: 50_000 })).seconds,
  );
  loaded.push(
    (await measure({ iterations: ITERATIONS, middleware: 5, observers: 5, contextBudgetTokens: 50_000 })).seconds,
  );
}

const size = (n: number) => n.toLocaleString("en-US");
const rows: BenchRow[] = [
  {
    measure: `engine, ${size(ITERATIONS)} iterations, default options: rate`,
    unit: "it/s",
    harnessx: run.rate,
    anchor: aiSdk,
    anchorName: "AI SDK generateText",
    aim: { on: "value", op: ">=", target: 20_000 },
    note: `median of ${ROUNDS}; AI SDK at ${size(AI_SDK_STEPS)} steps (quadratic), MockLanguageModelV4 (ai 7)`,
  },
  {
    measure: `engine: last/first ${size(WINDOW)} rate`,
    unit: "",
    harnessx: run.lastRate / run.firstRate,
    aim: { on: "value", op: ">=", target: 0.9 },
    note: `first ${Math.round(run.firstRate)} it/s, last ${Math.round(run.lastRate)} it/s`,
  },
  {
    measure: `engine: peak heap, ${size(ITERATIONS)} iterations`,
    unit: "MB",
    harnessx: run.peakHeapMb,
    aim: { on: "value", op: "<", target: 100 },
  },
  {
    measure: `engine, ${size(CONDENSE_ITERATIONS)} iterations with condensing: peak heap`,
    unit: "MB",
    harnessx: long.peakHeapMb,
    aim: { on: "value", op: "<", target: 200 },
    note: `${long.condensed} condensations, ${Math.round(long.rate)} it/s`,
  },
  {
    measure: "engine, 5 middleware + 5 observers per event: time loaded/bare",
    unit: "s",
    harnessx: median(loaded),
    anchor: median(bare),
    anchorName: "bare engine",
    aim: { on: "ratio", op: "<=", target: 1.3 },
    note: `${size(ITERATIONS)} iterations, contextBudgetTokens 50,000`,
  },
];
report("engine", rows);
