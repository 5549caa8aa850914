import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HookEvent, type ErrorData } from "@harnessx/core/extension";
import { FlightRecorderExtension, RecorderWriteError, RecordingStore, readRun, runDirOf } from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

describe("a failing disk is reported once and the run goes on", () => {
  test("a store path that cannot be created: one ERROR (source recorder), run completes", async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(join(dir, "not-a-dir"), "x");
      const recorder = new FlightRecorderExtension({ dir: join(dir, "not-a-dir", "store") });
      const agent = scriptedAgent([...echoScript(5), ...echoScript(5)], [recorder]);
      const errors: ErrorData[] = [];
      agent.hooks.on(HookEvent.ERROR, (ctx) => void errors.push(ctx.data));
      const first = await agent.run("one");
      await new Promise((resolve) => setTimeout(resolve, 250));
      const second = await agent.run("two");
      await agent.close();
      assert.equal(first.status, "completed");
      assert.equal(second.status, "completed");
      const fromRecorder = errors.filter((e) => e.source === "recorder");
      assert.equal(fromRecorder.length, 1, "reported exactly once");
      assert.ok(fromRecorder[0].error instanceof RecorderWriteError, "typed error");
      assert.ok(recorder.failed instanceof RecorderWriteError, "recorder knows it stopped");
    } finally {
      cleanup();
    }
  });

  test("the store removed mid-run: recording stops with one ERROR, the run completes", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = join(dir, "store");
      const recorder = new FlightRecorderExtension({ dir: store, segmentMaxBytes: 2048 });
      const errors: ErrorData[] = [];
      const steps = echoScript(60).map((step, i) => (i === 20 ? { ...step, delayMs: 300 } : step));
      const agent = scriptedAgent(steps, [recorder]);
      agent.hooks.on(HookEvent.ERROR, (ctx) => void errors.push(ctx.data));
      setTimeout(() => rmSync(store, { recursive: true, force: true }), 150);
      const result = await agent.run("go");
      await agent.close();
      assert.equal(result.status, "completed");
      assert.equal(errors.filter((e) => e.source === "recorder").length, 1);
    } finally {
      cleanup();
    }
  });
});

describe("a full queue drops events and records the gap", () => {
  test("recorder.dropped carries count and time range; seq stays contiguous", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir, queueCapacity: 10, flushIntervalMs: 60_000 });
      const agent = scriptedAgent(echoScript(30), [recorder]);
      let emitted = 0;
      agent.hooks.onAny(() => void emitted++);
      const result = await agent.run("flood");
      await agent.close();
      const { events } = await readRun(runDirOf(dir, result.runId));
      const dropped = events.filter((e) => e.kind === "recorder.dropped");
      assert.equal(dropped.length, 1);
      const { count, fromTs, toTs } = dropped[0].attrs as { count: number; fromTs: number; toTs: number };
      const total = events.length - 1 + count;
      assert.ok(count > 0 && toTs >= fromTs, `count ${count}`);
      assert.equal(total, emitted, "recorded + dropped = every event of the run");
      assert.equal(events[events.length - 1].kind, "agent_end", "run boundaries are never dropped");
      assert.deepEqual(
        events.map((e) => e.seq),
        events.map((_, i) => i + 1),
      );
      const [listing] = await new RecordingStore(dir).listRuns();
      assert.equal(listing.dropped, count);
    } finally {
      cleanup();
    }
  });
});

describe("a run that never yields to the event loop is recorded whole", () => {
  test("a zero-latency 3,000-iteration run: every event, in order, encoded while the writer is starved", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir, flushIntervalMs: 1 });
      const agent = scriptedAgent(echoScript(3000), [recorder]);
      let emitted = 0;
      agent.hooks.onAny(() => void emitted++);
      const result = await agent.run("busy");
      await agent.close();
      const { events } = await readRun(runDirOf(dir, result.runId));
      assert.equal(events.length, emitted);
      assert.deepEqual(
        events.map((e) => e.seq),
        events.map((_, i) => i + 1),
      );
      assert.equal(events.filter((e) => e.kind === "tool_call_end").length, 3000);
    } finally {
      cleanup();
    }
  });
});

describe("runs never mix", () => {
  test("several agents in one process record side by side", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const agents = [0, 1, 2].map((i) =>
        scriptedAgent(
          echoScript(10 + i).map((s) => ({ ...s, delayMs: 1 })),
          [new FlightRecorderExtension({ dir })],
          `agent-${i}`,
        ),
      );
      const results = await Promise.all(agents.map((a, i) => a.run(`task ${i}`)));
      await Promise.all(agents.map((a) => a.close()));
      const store = new RecordingStore(dir);
      const runs = await store.listRuns();
      assert.equal(runs.length, 3);
      for (const [i, result] of results.entries()) {
        const events = await store.readEvents(result.runId);
        assert.ok(
          events.every((e) => e.runId === result.runId),
          "only its own events",
        );
        assert.equal(events.filter((e) => e.kind === "tool_call_end").length, 10 + i);
        assert.equal((await store.getRun(result.runId)).agent, `agent-${i}`);
      }
    } finally {
      cleanup();
    }
  });

  test("several processes on one store record side by side", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const child = new URL("../test-support/recording-child.ts", import.meta.url).pathname;
      await Promise.all(
        [0, 1].map(
          () =>
            new Promise<void>((resolve, reject) => {
              const proc = spawn(process.execPath, ["--import", "tsx", child, dir, "40"], { stdio: "ignore" });
              proc.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`child exited ${code}`))));
            }),
        ),
      );
      const store = new RecordingStore(dir);
      const runs = await store.listRuns();
      assert.equal(runs.length, 2);
      for (const run of runs) {
        assert.equal(run.status, "completed");
        assert.equal(run.toolCalls, 40);
        const events = await store.readEvents(run.runId);
        assert.ok(
          events.every((e) => e.runId === run.runId),
          "only its own events",
        );
        assert.deepEqual(
          events.map((e) => e.seq),
          events.map((_, i) => i + 1),
        );
      }
    } finally {
      cleanup();
    }
  });
});
