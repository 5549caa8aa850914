// A process that records one run slowly (each tool call waits a little), with small segments and
// a short flush interval, so a reader can follow it while it is written, across segment seals.
import { Agent, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { FlightRecorderExtension } from "@harnessx/recorder";

const [dir, callsText] = process.argv.slice(2);
const calls = Number(callsText);
const lookup = tool({
  name: "lookup",
  description: "looks a record up, slowly",
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  execute: async ({ q }: { q: string }) => {
    // Long enough that a follower started under load (about 1 s to start here) still sees most of the run live.
    await new Promise((resolve) => setTimeout(resolve, 30));
    if (q.endsWith("7")) throw new Error(`record ${q} is locked`);
    return `record ${q}: ${"detail ".repeat(40)}`;
  },
});
const steps: ScriptStep[] = Array.from({ length: calls }, (_, i) => ({
  toolCalls: [{ name: "lookup", input: { q: `r${i}` } }],
}));
steps.push({ text: "done" });
const agent = new Agent({
  limits: { maxIterations: calls + 1 },
  provider: new ScriptedProvider(steps),
  name: "live-child",
  tools: [lookup],
  extensions: [new FlightRecorderExtension({ dir, flushIntervalMs: 10, segmentMaxBytes: 16 * 1024 })],
});
const result = await agent.run("look every record up");
await agent.close();
process.stdout.write(`${result.runId}\n`);
