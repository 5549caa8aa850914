// The edges of tail retention: a call without a price may have cost anything, a run waiting for
// approval is not over, and a durable run reopened to go on is judged at its end, not in between.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { defineExtension } from "@harnessx/core/extension";
import { FlightRecorderExtension, readRun, readRunManifest, recover, runDirOf, type RetainPolicy } from "../index.js";
import { crashInPay, durableAgent } from "../test-support/durable-runs.js";
import { tempDir } from "../../../test/support/system.js";

/** A cheap reply: one input token. */
const cheap = { text: "ok", usage: { inputTokens: 1, outputTokens: 0 } };

/** One run of a one-reply agent recording into `dir`; `priced` gives its model a price (a dollar per million tokens). */
async function oneRun(dir: string, retain: RetainPolicy, priced: boolean): Promise<string> {
  const prices = priced ? { "house-model": { inputPerMTok: 1, outputPerMTok: 1 } } : undefined;
  const agent = new Agent({
    pricing: { prices },
    provider: new ScriptedProvider([cheap]),
    model: "house-model",
    extensions: [new FlightRecorderExtension({ dir, retain })],
  });
  const { runId } = await agent.run("go");
  await agent.close();
  return runId;
}

describe("retain.costAbove keeps a run whose cost is unknown", () => {
  test("a run with an unpriced call keeps its events; the same run priced under the threshold is reduced", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const retain = { always: [], costAbove: 1 };
      const unpriced = await oneRun(dir, retain, false);
      const priced = await oneRun(dir, retain, true);
      const unpricedRun = await readRunManifest(runDirOf(dir, unpriced));
      assert.equal(unpricedRun.rollup!.models["house-model"]!.unpricedCalls, 1, "the model has no price");
      assert.equal(unpricedRun.detail, undefined, "an unknown cost may be above the threshold: kept");
      assert.ok((await readRun(runDirOf(dir, unpriced))).events.length > 0);
      assert.equal(
        (await readRunManifest(runDirOf(dir, priced))).detail,
        "summary",
        "a known cost of $0.000001 is not above $1",
      );
    } finally {
      cleanup();
    }
  });
});

/** The pid of a process that has ended: a lock naming it is a crashed recorder's. */
const deadPid = (): number => spawnSync(process.execPath, ["-e", ""]).pid!;

describe("recover leaves a run waiting for approval whole", () => {
  test("a run paused for approval whose process died is sealed but not reduced, however often it is recovered", async () => {
    const { dir, cleanup } = tempDir();
    const crashed = tempDir();
    try {
      const transfer = tool({
        name: "transfer",
        description: "moves money",
        permission: "ask",
        execute: () => "moved",
      });
      const recorder = new FlightRecorderExtension({ dir, retain: { always: [] } });
      const agent = new Agent({
        provider: new ScriptedProvider([{ toolCalls: [{ id: "t1", name: "transfer", input: {} }] }, cheap]),
        tools: [transfer],
        extensions: [recorder],
      });
      const paused = await agent.run("pay the bill");
      assert.equal(paused.status, "awaiting_approval");
      await recorder.flush();
      // The store as a kill during the wait leaves it: run.json says it waits, its lock names a dead process.
      const runDir = runDirOf(crashed.dir, paused.runId);
      cpSync(runDirOf(dir, paused.runId), runDir, { recursive: true });
      writeFileSync(join(runDir, "lock"), `${deadPid()}\n`);
      const before = (await readRun(runDir)).events;
      assert.ok(before.length > 0);

      const first = await recover(runDir);
      assert.deepEqual([first.recovered, first.status, first.reduced], [true, "awaiting_approval", false]);
      const manifest = await readRunManifest(runDir);
      assert.equal(manifest.detail, undefined, "not reduced to its summary: it will resume");
      assert.equal((await readRun(runDir)).events.length, before.length + 1, "its events and the recovery line");
      const again = await recover(runDir);
      assert.deepEqual([again.recovered, again.reduced], [false, false], "a second recover leaves it too");
      assert.equal((await readRun(runDir)).events.length, before.length + 1);
      await agent.close();
    } finally {
      cleanup();
      crashed.cleanup();
    }
  });
});

describe("a durable run's recording reopened to go on is not reduced in between", () => {
  test("the crashed first part keeps its events when the run goes on and ends as a run the policy keeps", async () => {
    const journal = tempDir("hx-journal-");
    const { dir, cleanup } = tempDir();
    try {
      // The policy keeps failed runs only: the first part, sealed as crashed, would not be kept alone.
      const retain = { always: ["failed" as const] };
      const runId = await crashInPay(journal.dir, [new FlightRecorderExtension({ dir, retain })]);
      const failing = defineExtension(
        "failing-limit",
        (hx) =>
          void hx.addRunLimit({
            check: () => {
              throw new Error("quota service down");
            },
          }),
      );
      const agent = durableAgent(journal.dir, [new FlightRecorderExtension({ dir, retain }), failing]);
      const result = await agent.resume(runId);
      await agent.close();
      assert.equal(result.status, "failed");

      const runDir = runDirOf(dir, runId);
      const manifest = await readRunManifest(runDir);
      assert.equal(manifest.detail, undefined, "a failed run is kept");
      const { events } = await readRun(runDir);
      const starts = events.filter((e) => e.kind === "agent_start").map((e) => e.attrs.restored ?? false);
      assert.deepEqual(starts, [false, true], "both parts are there, the first one included");
      assert.ok(
        events.some((e) => e.kind === "tool_call_end" && e.attrs.toolName === "search"),
        "the first part's search call",
      );
      assert.deepEqual(
        events.map((e) => e.seq),
        events.map((_, i) => i + 1),
      );
    } finally {
      cleanup();
      journal.cleanup();
    }
  });
});
