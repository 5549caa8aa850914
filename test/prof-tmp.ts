import { Agent, ALL_HOOK_EVENTS, Middleware, MiddlewarePipeline, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
const noop = tool({ name: "noop", description: "does nothing", inputSchema: { type: "object", properties: { i: { type: "number" } } }, execute: () => "ok" });
const N = Number(process.env.N ?? 10000);
const LOADED = process.env.LOADED === "1";
class NoOp extends Middleware {
  override async beforeLlmCall(m: any, t: any) { return [m, t] as any; }
  override async afterLlmCall(r: any) { return r; }
  override async beforeToolExecution(c: any) { return c; }
  override async afterToolExecution(r: any) { return r; }
}
async function once(n: number) {
  const step: ScriptStep = (_r, i) => ({ toolCalls: [{ name: "noop", input: { i } }] });
  const steps: ScriptStep[] = new Array<ScriptStep>(n).fill(step);
  steps.push({ text: "done" });
  let agent: Agent;
  if (LOADED) {
    const pipeline = new MiddlewarePipeline();
    for (let i = 0; i < 5; i++) pipeline.add(new NoOp());
    agent = new Agent({ provider: new ScriptedProvider(steps), tools: [noop], middleware: pipeline, maxIterations: n + 1, contextBudgetTokens: 50_000 });
    let o = 0;
    for (let i = 0; i < 5; i++) for (const e of ALL_HOOK_EVENTS) agent.hooks.on(e, () => void o++);
  } else agent = new Agent({ provider: new ScriptedProvider(steps), tools: [noop], maxIterations: n + 1, ...(process.env.BUDGET ? { contextBudgetTokens: 50_000 } : {}) });
  const c0 = process.cpuUsage();
  const r = await agent.run("go");
  const c = process.cpuUsage(c0);
  if (r.status !== "completed") throw new Error(r.status);
  return (c.user + c.system) / n;
}
await once(N);
const xs = [];
for (let i = 0; i < 3; i++) xs.push(await once(N));
xs.sort((a, b) => a - b);
console.log(LOADED ? "loaded" : "bare", "cpu us/iteration median", xs[1].toFixed(1), "=>", (1e6 / xs[1]).toFixed(0), "it/s");
