import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ConfigError, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { HookEvent } from "@harnessx/core/extension";
import { traceIdRatioSampled } from "@harnessx/core/tracing";
import {
  exportIncident,
  FlightRecorderExtension,
  openRecording,
  RecordingStore,
  RunReducedError,
  runDirOf,
  type RetainPolicy,
  type RunManifest,
} from "../index.js";
import { echoTool } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

/** A dollar per input token: a run's cost is its input tokens, exactly. */
const PRICES = { "scripted-model": { inputPerMTok: 1_000_000, outputPerMTok: 0 } };
/**
 * The slow run's tool wait; the threshold is 3/4 of it. The other runs must stay under the
 * threshold on a loaded CI machine, the first one paying for loading the price table too.
 */
const SLOW_MS = 2_000;
const SLOWER_THAN_MS = (SLOW_MS * 3) / 4;
const wait = tool({
  name: "wait",
  description: "waits",
  execute: () => new Promise<string>((resolve) => setTimeout(() => resolve("waited"), SLOW_MS)),
});

const cheap = (text = "ok"): ScriptStep => ({ text, usage: { inputTokens: 1, outputTokens: 1 } });

/** One agent recording into `dir` under `retain`; each `agent.run` takes the next steps of `steps`. */
function retainingAgent(
  dir: string,
  retain: RetainPolicy | undefined,
  steps: ScriptStep[],
): { agent: Agent; recorder: FlightRecorderExtension } {
  const recorder = new FlightRecorderExtension({ dir, retain, inlinePayloadBytes: 1024 });
  const agent = new Agent({
    pricing: { prices: PRICES },
    provider: new ScriptedProvider(steps),
    tools: [echoTool, wait],
    extensions: [recorder],
  });
  return { agent, recorder };
}

const manifestOf = (dir: string, runId: string): RunManifest =>
  JSON.parse(readFileSync(join(runDirOf(dir, runId), "run.json"), "utf8")) as RunManifest;

describe("tail retention keeps failed, slow and costly runs and reduces the rest to their summary", () => {
  test("each run is kept or reduced by its policy; a reduced run keeps run.json (rollup, totals) and loses its events and pins", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { agent } = retainingAgent(dir, { slowerThanMs: SLOWER_THAN_MS, costAbove: 5 }, [
        {
          toolCalls: [{ id: "c1", name: "echo", input: { text: "step" } }],
          usage: { inputTokens: 1, outputTokens: 1 },
        },
        cheap(),
        { error: { status: 400, message: "bad request" } },
        { toolCalls: [{ id: "c2", name: "wait", input: {} }], usage: { inputTokens: 1, outputTokens: 1 } },
        cheap(),
        { text: "pricey", usage: { inputTokens: 10, outputTokens: 1 } },
        cheap(),
      ]);
      const big = await agent.run("cheap with a tool call");
      const failed = await agent.run("fails");
      const slow = await agent.run("waits");
      const costly = await agent.run("costs $10");
      const plain = await agent.run("cheap");
      await agent.close();
      assert.deepEqual(
        [big, failed, slow, costly, plain].map((r) => r.status),
        ["completed", "failed", "completed", "completed", "completed"],
      );

      const store = new RecordingStore(dir);
      const detail = new Map((await store.listRuns()).map((r) => [r.runId, r.detail]));
      assert.deepEqual(
        [big, failed, slow, costly, plain].map((r) => detail.get(r.runId)),
        ["summary", "full", "full", "full", "summary"],
      );
      assert.deepEqual(await store.stats(), { runs: 5, kept: 3, reduced: 2, invalid: 0 });

      const reduced = manifestOf(dir, big.runId);
      assert.equal(reduced.detail, "summary");
      assert.equal(reduced.reducedBy, "retain");
      assert.deepEqual(reduced.retain, {
        always: ["failed", "crashed", "error"],
        slowerThanMs: SLOWER_THAN_MS,
        costAbove: 5,
      });
      assert.equal(reduced.status, "completed");
      assert.equal(reduced.summary!.toolCalls, 1);
      assert.equal(reduced.rollup!.models["scripted-model"]!.costUsd, 2, "the summary row keeps the cost");
      assert.equal(existsSync(join(runDirOf(dir, big.runId), "segments")), false, "event segments deleted");
      assert.equal(manifestOf(dir, costly.runId).detail, undefined);
      assert.ok((await store.readEvents(costly.runId)).length > 0);
    } finally {
      cleanup();
    }
  });

  test("a reduced run releases the artifacts it pinned (they are deleted when no other run holds them)", async () => {
    for (const retain of [undefined, { always: [] }]) {
      const { dir, cleanup } = tempDir();
      try {
        const { agent } = retainingAgent(dir, retain, [
          { toolCalls: [{ id: "c1", name: "echo", input: { text: "x".repeat(4000) } }] },
          cheap(),
        ]);
        const { runId } = await agent.run("a tool result stored aside");
        await agent.close();
        const artifacts = await new RecordingStore(dir).artifacts.list();
        if (retain) {
          assert.deepEqual(artifacts, []);
          assert.deepEqual(manifestOf(dir, runId).artifacts, []);
        } else {
          assert.ok(artifacts.length > 0, "without retention the run's payload is an artifact");
          assert.deepEqual(manifestOf(dir, runId).artifacts.sort(), [...artifacts].sort());
        }
      } finally {
        cleanup();
      }
    }
  });

  test("reading a reduced run's events fails with RunReducedError; its summary still opens", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { agent } = retainingAgent(dir, { always: [] }, [cheap()]);
      const { runId } = await agent.run("cheap");
      await agent.close();
      const store = new RecordingStore(dir);
      await assert.rejects(store.readEvents(runId), RunReducedError);
      await assert.rejects(exportIncident({ dir, runId, reason: "manual" }), RunReducedError);
      await using recording = await openRecording(runId, { storeDir: dir });
      assert.equal(recording.run.detail, "summary");
      assert.equal(recording.summary.modelCalls, 1);
      await assert.rejects(async () => {
        for await (const _event of recording.events()) break;
      }, RunReducedError);
      await assert.rejects(recording.database(), RunReducedError);
      assert.deepEqual((await store.readAllEvents()).length, 0, "store-wide reads skip reduced runs");
    } finally {
      cleanup();
    }
  });

  test("an ERROR event keeps a run under `error`; without `error` in always it is reduced", async () => {
    for (const [always, expected] of [
      [["error"], undefined],
      [[], "summary"],
    ] as const) {
      const { dir, cleanup } = tempDir();
      try {
        const { agent } = retainingAgent(dir, { always }, [cheap()]);
        agent.hooks.on(HookEvent.LLM_RESPONSE, () => {
          throw new Error("observer failure");
        });
        const { runId } = await agent.run("go");
        await agent.close();
        const run = manifestOf(dir, runId);
        assert.ok(run.summary!.byKind.error! >= 1, "the observer's failure was recorded as an ERROR event");
        assert.equal(run.detail, expected);
      } finally {
        cleanup();
      }
    }
  });

  test("without retain every run keeps its events and run.json records no policy", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { agent } = retainingAgent(dir, undefined, [cheap(), cheap()]);
      await agent.run("a");
      await agent.run("b");
      await agent.close();
      const runs = await new RecordingStore(dir).listRuns();
      assert.deepEqual(
        runs.map((r) => r.detail),
        ["full", "full"],
      );
      assert.equal(manifestOf(dir, runs[0]!.runId).retain, undefined);
      assert.deepEqual(await new RecordingStore(dir).stats(), { runs: 2, kept: 2, reduced: 0, invalid: 0 });
    } finally {
      cleanup();
    }
  });
});

describe("retain.sample keeps the runs OpenTelemetry's TraceIdRatioBased sampler keeps", () => {
  test("of many runs, those whose trace id the rule samples keep their events, the others are reduced", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const runs = 16;
      const { agent } = retainingAgent(
        dir,
        { always: [], sample: 0.5 },
        Array.from({ length: runs }, () => cheap()),
      );
      for (let i = 0; i < runs; i++) await agent.run(`run ${i}`);
      await agent.close();
      const listed = await new RecordingStore(dir).listRuns();
      assert.equal(listed.length, runs);
      for (const run of listed)
        assert.equal(run.detail, traceIdRatioSampled(run.traceId!, 0.5) ? "full" : "summary", run.traceId!);
      const kept = listed.filter((r) => r.detail === "full").length;
      assert.ok(kept > 0 && kept < runs, `a ratio of 0.5 keeps some and reduces some (kept ${kept} of ${runs})`);
    } finally {
      cleanup();
    }
  });
});

describe("a bad retain policy is refused with a ConfigError", () => {
  test("unknown condition, sample out of [0, 1], negative threshold, not an object", () => {
    const bad: unknown[] = [
      { always: ["slow"] },
      { always: "failed" },
      { sample: 1.5 },
      { sample: -0.1 },
      { slowerThanMs: -1 },
      { costAbove: Number.NaN },
      "failed",
      null,
    ];
    for (const retain of bad) {
      assert.throws(
        () => new FlightRecorderExtension({ retain: retain as RetainPolicy }),
        (error: unknown) => error instanceof ConfigError && /retain/.test(error.message),
        JSON.stringify(retain),
      );
    }
  });
});
