import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { defineExtension, HookEvent } from "@harnessx/core/extension";
import { FlightRecorderExtension, readRun, RecordingStore, runDirOf } from "../index.js";
import { echoScript, echoTool, scriptedAgent } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

describe("a resumed run continues the same recording", () => {
  test("awaiting approval then resume: one run, one run span, contiguous seq", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const risky = tool({ name: "risky", description: "needs approval", permission: "ask", execute: () => "did it" });
      const recorder = new FlightRecorderExtension({ dir });
      const provider = new ScriptedProvider([
        { toolCalls: [{ id: "c1", name: "risky", input: {} }] },
        { text: "finished" },
      ]);
      const agent = new Agent({ provider, tools: [risky], extensions: [recorder] });
      const paused = await agent.run("do the risky thing");
      assert.equal(paused.status, "awaiting_approval");
      await recorder.flush();
      assert.equal(
        (await new RecordingStore(dir).getRun(paused.runId)).status,
        "awaiting_approval",
        "run.json says the run waits",
      );
      const done = await agent.resume({ c1: "approve" });
      await agent.close();
      assert.equal(done.status, "completed");
      assert.equal(done.runId, paused.runId);
      const store = new RecordingStore(dir);
      assert.equal((await store.listRuns()).length, 1);
      const events = await store.readEvents(paused.runId);
      const starts = events.filter((e) => e.kind === "agent_start");
      assert.deepEqual(
        starts.map((e) => e.attrs.resumed),
        [false, true],
      );
      assert.equal(starts[0].spanId, starts[1].spanId, "same run span");
      assert.deepEqual(
        events.map((e) => e.seq),
        events.map((_, i) => i + 1),
      );
      assert.equal((await store.getRun(paused.runId)).status, "completed");
    } finally {
      cleanup();
    }
  });
});

describe("events an extension reports are recorded as its own", () => {
  test("each names the extension, and its awaiting_approval checkpoint leaves run.json running", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir });
      let statusMidRun: string | undefined;
      const forger = defineExtension({
        name: "forger",
        install(ctx) {
          ctx.registerTool(
            tool({
              name: "work",
              description: "works",
              execute: async (_input, call) => {
                await ctx.report(HookEvent.SKILL_INVOKED, { skill: "approve-payments", found: true, bodyChars: 900 });
                await ctx.report(HookEvent.CHECKPOINT, {
                  sessionId: "s",
                  runId: call.runId,
                  status: "awaiting_approval",
                  phase: "approval_wait",
                });
                await recorder.flush();
                statusMidRun = (await new RecordingStore(dir).getRun(call.runId)).status;
                return "ok";
              },
            }),
          );
        },
      });
      const provider = new ScriptedProvider([{ toolCalls: [{ id: "c1", name: "work", input: {} }] }, { text: "done" }]);
      const agent = new Agent({ provider, extensions: [recorder, forger] });
      const result = await agent.run("go");
      await agent.close();
      assert.equal(statusMidRun, "running", "an extension cannot pause the recorded run");
      const events = await new RecordingStore(dir).readEvents(result.runId);
      const reported = events.filter((e) => e.kind === "skill_invoked" || e.kind === "checkpoint");
      assert.deepEqual(
        reported.map((e) => [e.kind, e.attrs.extension, (e.payload as { extension?: string }).extension]),
        [
          ["skill_invoked", "forger", "forger"],
          ["checkpoint", "forger", "forger"],
        ],
      );
    } finally {
      cleanup();
    }
  });
});

describe("segments seal by size and age; retention drops the oldest", () => {
  test("small segments seal while running and read back in order", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir, segmentMaxBytes: 4096, flushIntervalMs: 10 });
      const agent = scriptedAgent(
        echoScript(40).map((step) => ({ ...step, delayMs: 3 })),
        [recorder],
      );
      const result = await agent.run("go");
      await agent.close();
      const read = await readRun(runDirOf(dir, result.runId));
      assert.ok(read.segments.length > 5, `${read.segments.length} segments`);
      assert.ok(
        read.segments.every((s) => s.sealed && s.info),
        "every segment sealed with a checksum sidecar",
      );
      assert.deepEqual(
        read.events.map((e) => e.seq),
        read.events.map((_, i) => i + 1),
      );
    } finally {
      cleanup();
    }
  });

  test("maxAge removes expired runs whole and releases their artifacts; maxBytes keeps the newest", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const old = new FlightRecorderExtension({ dir, inlinePayloadBytes: 256 });
      const a = scriptedAgent(echoScript(3, "y".repeat(2000)), [old]);
      const oldRun = await a.run("old");
      await a.close();
      const oldDir = runDirOf(dir, oldRun.runId);
      const past = new Date(Date.now() - 3_600_000);
      for (const name of readdirSync(join(oldDir, "segments"))) utimesSync(join(oldDir, "segments", name), past, past);
      const artifactsBefore = await old.artifacts.list();
      assert.ok(artifactsBefore.length > 0, "the old run stored artifacts");

      const fresh = new FlightRecorderExtension({ dir, maxAge: 60_000 });
      const b = scriptedAgent(echoScript(3), [fresh]);
      const newRun = await b.run("new");
      await b.close();
      assert.equal(existsSync(oldDir), false, "expired run removed");
      assert.ok(existsSync(runDirOf(dir, newRun.runId)), "fresh run kept");
      assert.deepEqual(await fresh.artifacts.list(), [], "artifacts pinned only by the expired run are deleted");

      const tight = new FlightRecorderExtension({ dir, maxBytes: 1, segmentMaxBytes: 512 });
      const c = scriptedAgent(echoScript(10), [tight]);
      const last = await c.run("tight");
      await c.close();
      const listing = await new RecordingStore(dir).listRuns();
      assert.ok(!listing.some((r) => r.runId === newRun.runId), "older run evicted by the size limit");
      assert.ok(
        listing.length <= 1 && (listing.length === 0 || listing[0].runId === last.runId),
        JSON.stringify(listing.map((r) => r.runId)),
      );
    } finally {
      cleanup();
    }
  });
});

describe("captureContent false keeps structure without content", () => {
  test("no message text, tool input or result is written", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir, captureContent: false });
      const agent = new Agent({
        provider: new ScriptedProvider([
          { toolCalls: [{ id: "c1", name: "echo", input: { text: "PRIVATE-INPUT" } }] },
          { text: "PRIVATE-REPLY" },
        ]),
        tools: [echoTool],
        extensions: [recorder],
      });
      const result = await agent.run("PRIVATE-PROMPT");
      await agent.close();
      const { events } = await readRun(runDirOf(dir, result.runId));
      const text = JSON.stringify(events);
      for (const secret of ["PRIVATE-INPUT", "PRIVATE-REPLY", "PRIVATE-PROMPT"])
        assert.ok(!text.includes(secret), `${secret} recorded`);
      assert.equal(events.filter((e) => e.kind === "tool_call_end")[0].attrs.toolName, "echo", "structure kept");
    } finally {
      cleanup();
    }
  });
});
