import { Agent, type RunResult } from "harnessx";
import { demoProvider } from "./provider.js";
import { printTimeline } from "./timeline.js";
import { demoTools } from "./tools.js";

export interface DemoOptions {
  /** Where output lines go. Default console.log. */
  write?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface DemoOutcome {
  result: RunResult;
}

/** The main job: an agent run with several tools (one slow, one failing), printed as a timeline. */
export async function runDemo(options: DemoOptions = {}): Promise<DemoOutcome> {
  const write = options.write ?? ((line: string) => console.log(line));
  const { provider, label } = await demoProvider(options.env);
  write(`harnessx demo on ${label}`);
  await using agent = new Agent({
    provider,
    name: "support-agent",
    system: "You are a support agent. Use the tools to answer; say plainly when something failed.",
    tools: demoTools(),
  });
  printTimeline(agent, write);
  const result = await agent.run("Customer ada@example.com asks: what is the status of my orders, please charge the open one, and what's the weather in Lisbon?");
  write("");
  write(`status: ${result.status}${result.error ? ` (${result.error.message})` : ""}`);
  write(`answer: ${result.text}`);
  write(`usage: ${result.usage.inputTokens} input + ${result.usage.outputTokens} output tokens over ${result.modelCalls} model calls`);
  return { result };
}
