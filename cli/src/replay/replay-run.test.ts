import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { Agent, ScriptedProvider, tool, type AgentOptions, type ScriptStep } from "@harnessx/core";
import { FlightRecorderExtension, openRecording, runDirOf } from "@harnessx/recorder";
import { tempDir } from "../test-support/index.js";
import { replayRun } from "./replay-run.js";

/** One model step of a generated run: tool calls (some failing), a provider failure that is retried, or the answer. */
type Step = { calls: Array<{ tool: "lookup" | "broken"; size: number }> } | { providerFailure: number };

interface Case {
  steps: Step[];
  contextBudgetTokens: number;
  maxResultChars: number;
  maxIterations: number;
  repetition: false | { threshold: number };
}

const lookup = tool({
  name: "lookup",
  description: "looks a record up",
  inputSchema: { type: "object", properties: { q: { type: "string" }, size: { type: "number" } }, required: ["q"] },
  execute: ({ q, size }: { q: string; size?: number }) => `record ${q}: ${"detail ".repeat(size ?? 1)}`,
});
const broken = tool({
  name: "broken",
  description: "always fails",
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  execute: ({ q }: { q: string }) => {
    throw new Error(`backend down for ${q}`);
  },
});

function script(steps: readonly Step[]): ScriptStep[] {
  const out: ScriptStep[] = [];
  steps.forEach((step, i) => {
    if ("providerFailure" in step)
      out.push({ error: { status: step.providerFailure, message: `upstream ${step.providerFailure}` } });
    else
      out.push({
        toolCalls: step.calls.map((call, k) => ({
          id: `call_${i}_${k}`,
          name: call.tool,
          input: { q: `q${i}.${k}`, size: call.size },
        })),
        usage: { inputTokens: 40 * (i + 1), outputTokens: 9 },
      });
  });
  out.push({ text: "all done", usage: { inputTokens: 50, outputTokens: 3 } });
  return out;
}

async function record(store: string, c: Case, extra: Partial<AgentOptions> = {}): Promise<string> {
  const agent = new Agent({
    context: { contextBudgetTokens: c.contextBudgetTokens },
    limits: { maxResultChars: c.maxResultChars, maxIterations: c.maxIterations, repetition: c.repetition },
    provider: new ScriptedProvider(script(c.steps)),
    name: "generated",
    system: "You look records up.",
    tools: [lookup, broken],
    retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1 },
    extensions: [new FlightRecorderExtension({ dir: store })],
    ...extra,
  });
  try {
    return (await agent.run("look everything up")).runId;
  } finally {
    await agent.close();
  }
}

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      calls: fc.array(
        fc.record({
          tool: fc.constantFrom("lookup" as const, "lookup" as const, "broken" as const),
          size: fc.integer({ min: 1, max: 120 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ providerFailure: fc.constantFrom(500, 503, 429) }) },
);
const caseArb: fc.Arbitrary<Case> = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 14 }),
  contextBudgetTokens: fc.constantFrom(250, 600, 2_000, 150_000),
  maxResultChars: fc.constantFrom(120, 100_000),
  maxIterations: fc.integer({ min: 2, max: 20 }),
  repetition: fc.constantFrom(false as const, { threshold: 3 }),
});

describe("trace replay is faithful: unchanged code reproduces every recorded run", () => {
  test("generated runs (tool failures, concurrent calls, provider retries, condensing, cut results, iteration limits) replay with no divergence", async () => {
    const store = tempDir("replay-prop-");
    try {
      await fc.assert(
        fc.asyncProperty(caseArb, async (c) => {
          const runId = await record(store.dir, c);
          await using recording = await openRecording({ runDir: runDirOf(store.dir, runId) });
          const report = await replayRun(recording);
          assert.equal(report.divergence, null, `diverged: ${JSON.stringify(report.divergence)?.slice(0, 400)}`);
          assert.equal(report.reproduced, true, JSON.stringify(report));
          assert.deepEqual(report.configDifferences, []);
        }),
        {
          numRuns: Number(process.env.FUZZ_SCALE ?? 1) * 30,
          seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined,
        },
      );
    } finally {
      store.cleanup();
    }
  });

  test("a run condensed under a small context budget replays without crying wolf, since the budget is recorded", async () => {
    const store = tempDir("replay-condense-");
    try {
      const steps: Step[] = Array.from({ length: 12 }, () => ({ calls: [{ tool: "lookup" as const, size: 80 }] }));
      const runId = await record(store.dir, {
        steps,
        contextBudgetTokens: 400,
        maxResultChars: 100_000,
        maxIterations: 20,
        repetition: false,
      });
      await using recording = await openRecording({ runDir: runDirOf(store.dir, runId) });
      const condensed = (await recording.readEvents()).filter(
        (e) => e.kind === "recovery" || (e.kind === "llm_request" && e.attrs.messagesFrom === 0),
      );
      assert.ok(condensed.length > 1, "the run must have condensed its history at least once");
      const report = await replayRun(recording);
      assert.equal(report.reproduced, true, JSON.stringify(report.divergence));
      assert.equal(report.replayedCalls, 13);
    } finally {
      store.cleanup();
    }
  });
});

describe("trace replay --agent: the module under test", () => {
  /** A module that builds the agent from what replay hands it (`body` is the factory's body). */
  function agentModule(dir: string, body: string): string {
    const path = join(dir, `agent-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(
      path,
      `import { Agent } from ${JSON.stringify(import.meta.resolve("@harnessx/core"))};\nexport function createAgent({ provider, tools, model, name }) {\n${body}\n}\n`,
    );
    return path;
  }

  test("recorded tools passed through unchanged keep their time limit and attempts: no configuration difference", async () => {
    const store = tempDir("replay-module-");
    try {
      const patient = tool({
        name: "patient",
        description: "waits for a slow backend",
        inputSchema: { type: "object", properties: {} },
        timeoutSeconds: 5,
        retry: { attempts: 2 },
        execute: () => "ok",
      });
      const runId = await record(
        store.dir,
        {
          steps: [{ calls: [{ tool: "lookup", size: 2 }] }],
          contextBudgetTokens: 150_000,
          maxResultChars: 100_000,
          maxIterations: 5,
          repetition: false,
        },
        { tools: [lookup, broken, patient] },
      );
      await using recording = await openRecording({ runDir: runDirOf(store.dir, runId) });
      const module = agentModule(
        store.dir,
        `return new Agent({ provider, tools, model, name, system: "You look records up.", context: { contextBudgetTokens: 150_000 }, limits: { maxResultChars: 100_000, maxIterations: 5, repetition: false }, retry: { maxAttempts: 3 } });`,
      );
      const report = await replayRun(recording, module);
      assert.deepEqual(
        report.configDifferences.filter((d) => d.startsWith("tool ")),
        [],
      );
      assert.equal(report.reproduced, true, JSON.stringify(report.divergence));
    } finally {
      store.cleanup();
    }
  });

  test("a module whose factory throws, or returns no agent, is bad input (exit 4) naming the module", async () => {
    const store = tempDir("replay-bad-module-");
    try {
      const runId = await record(store.dir, {
        steps: [{ calls: [{ tool: "lookup", size: 1 }] }],
        contextBudgetTokens: 150_000,
        maxResultChars: 100_000,
        maxIterations: 5,
        repetition: false,
      });
      await using recording = await openRecording({ runDir: runDirOf(store.dir, runId) });
      const throwing = agentModule(store.dir, `throw new Error("no API key in this shell");`);
      await assert.rejects(
        replayRun(recording, throwing),
        (err: { exitCode?: number; message: string }) =>
          err.exitCode === 4 && err.message.includes(throwing) && err.message.includes("no API key"),
      );
      const empty = agentModule(store.dir, "return undefined;");
      await assert.rejects(
        replayRun(recording, empty),
        (err: { exitCode?: number; message: string }) => err.exitCode === 4 && /must return an Agent/.test(err.message),
      );
    } finally {
      store.cleanup();
    }
  });
});
