import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, ScriptedProvider, tool, type PricingOptions, type ScriptStep } from "@harnessx/core";
import { defineExtension, type ExtensionLike } from "@harnessx/core/extension";
import { ArtifactStore } from "@harnessx/artifacts";
import { ResultSpillExtension } from "@harnessx/spill";

/** A marker only the big (spilled) result contains: it must never reach a trace. */
export const BIG_MARKER = "BIG-RESULT-CONTENT-7f3a";
export const LONG_QUESTION = `Please look up both regions. ${"x".repeat(600)}`;

export const AGENT_NAME = "support";
export const MODEL = "scripted-model";

/**
 * The scripted run every tracing test shares: a 429 then a retry, two parallel
 * lookups, then a failing tool, a result big enough to spill and a call the
 * policy denies, then the answer.
 */
export function scenarioSteps(): ScriptStep[] {
  return [
    { error: { status: 429, message: "slow down" } },
    {
      text: "Checking both regions.",
      toolCalls: [
        { id: "call_a", name: "lookup", input: { region: "eu" } },
        { id: "call_b", name: "lookup", input: { region: "us" } },
      ],
      usage: { inputTokens: 120, outputTokens: 30, cacheReadTokens: 100 },
    },
    {
      toolCalls: [
        { id: "call_c", name: "broken", input: {} },
        { id: "call_d", name: "big", input: { rows: 2000 } },
        { id: "call_e", name: "forbidden", input: {} },
      ],
      usage: { inputTokens: 200, outputTokens: 20, cacheWriteTokens: 50 },
    },
    { text: "EU is up, US is up.", usage: { inputTokens: 300, outputTokens: 10 } },
  ];
}

const lookup = tool({
  name: "lookup",
  description: "Status of a region.",
  inputSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
  concurrent: true,
  execute: async ({ region }) => {
    await new Promise((r) => setTimeout(r, 30));
    return `${String(region)}: up`;
  },
});
const broken = tool({
  name: "broken",
  description: "Always fails.",
  execute: () => {
    throw new Error("backend unavailable");
  },
});
const big = tool({
  name: "big",
  description: "A large table.",
  inputSchema: { type: "object", properties: { rows: { type: "number" } } },
  execute: ({ rows }) => Array.from({ length: Number(rows) }, (_, i) => ({ id: i, note: `${BIG_MARKER}-${i}` })),
});
const forbidden = tool({ name: "forbidden", description: "Never allowed.", execute: () => "should not run" });

const denyForbidden = defineExtension({
  name: "deny_forbidden",
  install(ctx) {
    ctx.addPolicy({
      id: "no-forbidden",
      actions: ["forbidden"],
      decide: () => ({ decision: "deny", reason: "forbidden by policy" }),
    });
  },
});

export interface Scenario {
  agent: Agent;
  dir: string;
  cleanup(): void;
}

/** A fresh agent for the scenario with the given tracing extensions (plus the real spill extension and a denying policy). */
export function scenarioAgent(
  extensions: ExtensionLike[],
  options: { steps?: ScriptStep[]; extra?: (dir: string) => ExtensionLike[]; prices?: PricingOptions["prices"] } = {},
): Scenario {
  const dir = mkdtempSync(join(tmpdir(), "hx-exporters-"));
  const agent = new Agent({
    limits: { maxTokens: 1024 },
    name: AGENT_NAME,
    provider: new ScriptedProvider(options.steps ?? scenarioSteps(), { model: MODEL }),
    tools: [lookup, broken, big, forbidden],
    temperature: 0.2,
    retry: { initialDelayMs: 5, maxDelayMs: 10 },
    sessionId: "session-42",
    ...(options.prices ? { pricing: { prices: options.prices } } : {}),
    extensions: [
      new ResultSpillExtension({ thresholdBytes: 2000, store: new ArtifactStore(join(dir, "spill")) }),
      denyForbidden,
      ...(options.extra?.(dir) ?? []),
      ...extensions,
    ],
  });
  return { agent, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
