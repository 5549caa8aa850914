import { Agent, FlightRecorderExtension, ScriptedProvider, type RunResult, type ScriptStep, type Tool } from "harnessx";
import { DEMO_PRICES } from "./provider.js";

export interface FailingRunOptions {
  /** Store root the run is recorded in. */
  dir: string;
  /** The main run's system prompt and tools: the same agent, so `trace diff` compares like with like. */
  system: string;
  tools: Tool[];
}

/**
 * The model of the failing run: it tries the card charge (which fails at once), then the
 * provider answers 503 on every attempt. Always scripted, even when the demo runs on a real
 * model: the failure must happen every time for the README's walkthrough to find it.
 */
function failingScript(): ScriptStep[] {
  const overloaded: ScriptStep = { error: { status: 503, message: "model overloaded, try again later" } };
  return [
    {
      text: "I'll retry the charge for the open order.",
      toolCalls: [{ name: "charge_card", input: { customer: "grace@example.com", amount: 18.5 } }],
      usage: { inputTokens: 380, outputTokens: 29 },
    },
    overloaded,
    overloaded,
  ];
}

/**
 * A second, failing run of the demo's support agent, recorded beside the main one so that
 * `trace ls --status failed` and the README's walkthrough (`trace show last-failed --errors`, ...)
 * have a failure to work on. Kept short: one failing tool call, then a model call that fails
 * after one quick retry.
 */
export async function recordFailingRun(options: FailingRunOptions): Promise<RunResult> {
  const agent = new Agent({
    pricing: { prices: DEMO_PRICES },
    provider: new ScriptedProvider(failingScript(), { model: "scripted-demo" }),
    name: "support-agent",
    system: options.system,
    tools: options.tools,
    // One retry after 50 ms: the run shows a retry without making the demo wait.
    retry: { maxAttempts: 2, initialDelayMs: 50 },
    extensions: [new FlightRecorderExtension({ dir: options.dir })],
  });
  try {
    return await agent.run("Customer grace@example.com asks: please charge my open order again.");
  } finally {
    await agent.close();
  }
}
