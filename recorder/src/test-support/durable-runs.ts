// Durable runs that "crash": a run whose tool never returns is abandoned, and a second agent on
// the same journal resumes it, as a new process would after the first one died.
import { Agent, FileDurableStore, ScriptedProvider, tool, type ScriptedReply, type Tool } from "@harnessx/core";
import { HookEvent, type Extension } from "@harnessx/core/extension";

/** search (safe to repeat), then pay (never repeated), then the answer. */
export const DURABLE_SCRIPT: ScriptedReply[] = [
  { toolCalls: [{ id: "c1", name: "search", input: { q: "flights" } }], usage: { inputTokens: 12, outputTokens: 4 } },
  { toolCalls: [{ id: "c2", name: "pay", input: { amount: 5 } }], usage: { inputTokens: 20, outputTokens: 5 } },
  { text: "booked", usage: { inputTokens: 30, outputTokens: 2 } },
  // A second run of the same agent: its conversation then holds three replies.
  { text: "booked again", usage: { inputTokens: 40, outputTokens: 2 } },
];

/** Answers reply N to a request holding N assistant messages: the same reply at the same point of the run, in any process. */
function positionalProvider(): ScriptedProvider {
  return new ScriptedProvider(DURABLE_SCRIPT, { stepBy: "conversation" });
}

/** The run's tools; `pay` never returns when `payHangs` (the process "dies" in it). */
function durableTools(payHangs: boolean): Tool[] {
  return [
    tool({ name: "search", description: "finds flights", replayPolicy: "safe", execute: () => "2 flights" }),
    tool({
      name: "pay",
      description: "pays",
      replayPolicy: "never",
      execute: () => (payHangs ? new Promise<string>(() => {}) : "paid"),
    }),
  ];
}

/** A durable agent journaling in `journalDir`. */
export function durableAgent(journalDir: string, extensions: Extension[], payHangs = false): Agent {
  return new Agent({
    provider: positionalProvider(),
    tools: durableTools(payHangs),
    extensions,
    durable: { store: new FileDurableStore(journalDir) },
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
  });
}

/** Starts a durable run that hangs in its pay call (committed as started) and resolves with its id; the run is then abandoned. */
export function crashInPay(journalDir: string, extensions: Extension[]): Promise<string> {
  const agent = durableAgent(journalDir, extensions, true);
  return new Promise((resolve, reject) => {
    agent.hooks.on(HookEvent.TOOL_CALL_START, (ctx) => {
      if (ctx.data.toolCall.name === "pay") resolve(ctx.runId!);
    });
    agent
      .run("book a flight")
      .then((r) => reject(new Error(`the run ended (${r.status}) instead of hanging in pay`)), reject);
  });
}
