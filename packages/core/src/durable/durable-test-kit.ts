// Test kit of durable runs: a model that answers by the conversation's position (so a new
// process's provider picks up where the old one stopped), tools that count their runs, and a
// "crash" that leaves a run hanging so a second agent on the same store can resume it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Agent, AgentOptions } from "../engine/agent.js";
import { ScriptedProvider, type ScriptedReply } from "../providers/scripted.js";
import { tool, type ReplayPolicy, type Tool } from "../tools/tool.js";
import { FileDurableStore } from "./file-durable-store.js";

/** Answers reply N to a request holding N assistant messages: the same reply for the same point of the run, in any process. */
export function positionalProvider(replies: ScriptedReply[]): ScriptedProvider {
  return new ScriptedProvider(replies, { stepBy: "conversation" });
}

/** A tool that counts its runs and keeps the idempotency keys it was given; it hangs (a crash) on the runs listed in `hangOn`. */
export function countingTool(
  name: string,
  replayPolicy: ReplayPolicy | undefined,
  hangOn: number[] = [],
  permission?: "ask",
): { tool: Tool; keys: string[]; runs: () => number } {
  const keys: string[] = [];
  const made = tool({
    name,
    description: `${name} does its thing`,
    ...(replayPolicy ? { replayPolicy } : {}),
    ...(permission ? { permission } : {}),
    execute: (input, ctx) => {
      keys.push(ctx.idempotencyKey);
      if (hangOn.includes(keys.length)) return new Promise<string>(() => {});
      return `${name} done with ${JSON.stringify(input)}`;
    },
  });
  return { tool: made, keys, runs: () => keys.length };
}

/** A folder of journals removed after the test. */
export function journalDir(): { dir: string; store: () => FileDurableStore; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "hx-durable-"));
  return { dir, store: () => new FileDurableStore(dir), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts a run and returns its id once the run has committed `phase` `count` times (the run goes on, or hangs where its tool hangs). */
export async function runUntil(agent: Agent, input: string, phase: string, count = 1): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    agent.hooks.on("checkpoint", (ctx) => {
      if (ctx.data.phase === phase && ++seen === count) resolve(ctx.data.runId);
    });
    agent
      .run(input)
      .then((r) => reject(new Error(`the run ended (${r.status}) before its ${count}. ${phase} commit`)), reject);
  });
}

/** Options of an agent that journals to `store`. */
export function durableOptions(
  store: FileDurableStore,
  provider: ScriptedProvider,
  tools: Tool[],
  extra: Partial<AgentOptions> = {},
): AgentOptions {
  return { provider, tools, durable: { store }, retry: { initialDelayMs: 1, maxDelayMs: 5 }, ...extra };
}
