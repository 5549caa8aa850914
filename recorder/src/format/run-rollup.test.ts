import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import {
  FlightRecorderExtension,
  LatencySketch,
  readRun,
  recover,
  RollupTally,
  runDirOf,
  type RecordedEvent,
} from "../index.js";
import { readRunManifest } from "../store/run-manifest.js";
import { tempDir } from "../../../test/support/system.js";

/** Nearest rank: the value at rank ceil(q·n) of the sorted values. */
function exactQuantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1];
}

describe("the latency sketch", () => {
  test("answers every quantile within 1% of the exact value, and the maximum exactly", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.002, max: 3_600_000, noNaN: true }), { minLength: 1, maxLength: 400 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, q) => {
          const sketch = new LatencySketch();
          for (const v of values) sketch.add(v);
          const exact = exactQuantile(values, q);
          const estimate = sketch.quantile(q)!;
          assert.ok(Math.abs(estimate - exact) <= exact * 0.0101, `q=${q}: ${estimate} vs ${exact}`);
          assert.equal(sketch.largest, Math.max(...values));
          assert.deepEqual(LatencySketch.from(JSON.parse(JSON.stringify(sketch.toJSON()))).quantile(q), estimate);
        },
      ),
    );
  });

  test("is exact for one value and for zeros, and empty says null", () => {
    const one = new LatencySketch();
    one.add(5);
    assert.equal(one.quantile(0.5), 5);
    const zeros = new LatencySketch();
    for (let i = 0; i < 3; i++) zeros.add(0);
    zeros.add(Number.NaN);
    assert.equal(zeros.quantile(0.95), 0);
    assert.equal(zeros.toJSON().count, 3);
    assert.equal(new LatencySketch().quantile(0.5), null);
  });
});

/** The rollup of a run recomputed from what its segments hold, line by line. */
async function rollupFromLines(runDir: string) {
  const { text } = await readRun(runDir, { keepText: true });
  const tally = new RollupTally();
  for (const line of text!.split("\n"))
    if (line) tally.add(JSON.parse(line) as RecordedEvent, Buffer.byteLength(line) + 1);
  return tally.toJSON();
}

describe("an ended run's rollup in run.json", () => {
  const SECRET_MODEL = "gpt-AKIAROLLUPSECRET1234";
  const slow = tool({
    name: "lookup",
    description: "looks up",
    inputSchema: { type: "object" },
    execute: async () => new Promise((r) => setTimeout(() => r("x".repeat(3000)), 5)),
  });
  const failing = tool({
    name: "charge",
    description: "charges",
    inputSchema: { type: "object" },
    execute: () => {
      throw new Error("card declined");
    },
  });
  const script = () =>
    new ScriptedProvider(
      [
        {
          toolCalls: [
            { id: "a", name: "lookup", input: {} },
            { id: "b", name: "charge", input: {} },
          ],
          usage: { inputTokens: 100, outputTokens: 10 },
        },
        { toolCalls: [{ id: "c", name: "lookup", input: {} }], usage: { inputTokens: 200, outputTokens: 20 } },
        { text: "done", usage: { inputTokens: 300, outputTokens: 30 } },
      ],
      { model: SECRET_MODEL },
    );

  test("is what the lines on disk add up to, with names as redacted on the lines", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const agent = new Agent({
        provider: script(),
        tools: [slow, failing],
        extensions: [new FlightRecorderExtension({ dir, inlinePayloadBytes: 1024 })],
      });
      const result = await agent.run("go");
      await agent.close();
      const runDir = runDirOf(dir, result.runId);
      const manifest = await readRunManifest(runDir);
      assert.ok(manifest.rollup, "an ended run has a rollup");
      assert.deepEqual(manifest.rollup, await rollupFromLines(runDir));
      assert.ok(!JSON.stringify(manifest).includes(SECRET_MODEL), "the model's secret is not in run.json");
      const [model] = Object.entries(manifest.rollup.models);
      assert.equal(model[0], manifest.models[0], "the model as run.json names it, redacted");
      assert.match(model[0], /REDACTED/);
      assert.deepEqual(
        model[1],
        { calls: 3, inputTokens: 600, outputTokens: 60, costUsd: null, unpricedCalls: 3 },
        "a model without a price: its calls counted as unpriced",
      );
      assert.deepEqual(
        [manifest.rollup.tools.lookup.calls, manifest.rollup.tools.lookup.errors, manifest.rollup.tools.charge.errors],
        [2, 0, 1],
      );
      assert.ok(manifest.rollup.tools.lookup.latency.min >= 4, "durations are the tool's");
      assert.ok(manifest.rollup.bytesByKind.tool_call_end > 6000, "bytes count the payloads stored aside");
    } finally {
      cleanup();
    }
  });

  test("a run resumed after approval continues it; recovering a crashed run drops it", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const risky = tool({ name: "risky", description: "needs approval", permission: "ask", execute: () => "did it" });
      const recorder = new FlightRecorderExtension({ dir });
      const provider = new ScriptedProvider([
        { toolCalls: [{ id: "c1", name: "risky", input: {} }] },
        { toolCalls: [{ id: "c2", name: "lookup", input: {} }] },
        { text: "finished" },
      ]);
      const agent = new Agent({ provider, tools: [risky, slow], extensions: [recorder] });
      const paused = await agent.run("do the risky thing");
      assert.equal(paused.status, "awaiting_approval");
      await recorder.flush();
      const runDir = runDirOf(dir, paused.runId);
      await agent.resume({ c1: "approve" });
      await agent.close();
      const after = await readRunManifest(runDir);
      assert.deepEqual(Object.keys(after.rollup!.tools).sort(), ["lookup", "risky"]);
      assert.deepEqual(after.rollup, await rollupFromLines(runDir));
      // A plain segment left behind (a crash): recovery rewrites the totals from the events and drops the rollup.
      writeFileSync(join(runDir, "segments", "000099.ndjson"), "");
      await recover(runDir);
      assert.equal((await readRunManifest(runDir)).rollup, undefined);
    } finally {
      cleanup();
    }
  });
});

describe("the rollup's prompt-cache figures", () => {
  test("sum each model's cache reads and writes, and stay absent for a model whose replies never reported them", () => {
    const tally = new RollupTally();
    const reply = (attrs: Record<string, unknown>) =>
      tally.add({ kind: "llm_response", attrs: { inputTokens: 100, outputTokens: 1, ...attrs } }, 10);
    reply({ model: "claude", cacheReadTokens: 0, cacheWriteTokens: 90 });
    reply({ model: "claude", cacheReadTokens: 90 });
    reply({ model: "local" });
    const { models } = tally.toJSON();
    assert.deepEqual([models.claude.cacheReadTokens, models.claude.cacheWriteTokens], [90, 90]);
    assert.ok(!("cacheReadTokens" in models.local) && !("cacheWriteTokens" in models.local));
    assert.deepEqual(
      RollupTally.from(JSON.parse(JSON.stringify(tally.toJSON()))).toJSON().models,
      models,
      "a resumed run's rollup goes on from them",
    );
  });
});
