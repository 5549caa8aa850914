// A process that records a long run and reports progress; the crash test kills it with SIGKILL.
// Arguments: the store, the tool calls to make, and optionally a `retain` policy as JSON.
import { Agent, ScriptedProvider, type ScriptStep } from "@harnessx/core";
import { FlightRecorderExtension, type RetainPolicy } from "../index.js";
import { echoTool } from "./agents.js";

const [dir, iterationsText, retainJson] = process.argv.slice(2);
const iterations = Number(iterationsText);
const steps: ScriptStep[] = [];
for (let i = 0; i < iterations; i++) {
  steps.push((_request, index) => {
    if (index === 50) process.stdout.write(`progress ${index}\n`);
    return { toolCalls: [{ id: `call_${index}`, name: "echo", input: { text: `step ${index}` } }], delayMs: 2 };
  });
}
steps.push({ text: "done" });
const recorder = new FlightRecorderExtension({
  dir,
  segmentMaxBytes: 256 * 1024,
  ...(retainJson ? { retain: JSON.parse(retainJson) as RetainPolicy } : {}),
});
const agent = new Agent({
  limits: { maxIterations: iterations + 10 },
  provider: new ScriptedProvider(steps),
  tools: [echoTool],
  extensions: [recorder],
  name: "crash-child",
});
await agent.run("record until killed");
