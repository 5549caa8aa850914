import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HarnessError } from "@harnessx/core";
import { HookEvent } from "@harnessx/core/extension";
import {
  FlightRecorderExtension,
  readRun,
  readRunManifest,
  RecordingStore,
  runDirOf,
  type RecordedEvent,
} from "../index.js";
import { crashInPay, durableAgent } from "../test-support/durable-runs.js";
import { tempDir } from "../../../test/support/system.js";

const kinds = (events: RecordedEvent[]) => events.map((e) => e.kind);

/** A folder's files with their bytes, to show nothing in it changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      out[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name)).toString("base64");
  }
  return out;
}

describe("a durable run resumed after a crash continues its recording", () => {
  test("one run folder: seq without gaps, both parts, sealed as crashed in between, completed with totals over every event", async () => {
    const journal = tempDir("hx-journal-");
    const { dir, cleanup } = tempDir();
    try {
      const first = new FlightRecorderExtension({ dir });
      const runId = await crashInPay(journal.dir, [first]);
      await first.flush();
      const before = await readRun(runDirOf(dir, runId));
      assert.equal((await readRunManifest(runDirOf(dir, runId))).status, "running");

      const recorder = new FlightRecorderExtension({ dir });
      const agent = durableAgent(journal.dir, [recorder]);
      const result = await agent.resume(runId);
      await agent.close();
      assert.equal(result.status, "completed");

      assert.deepEqual(readdirSync(join(dir, "runs")), [runId], "one recording");
      const runDir = runDirOf(dir, runId);
      const { events } = await readRun(runDir);
      assert.deepEqual(
        events.map((e) => e.seq),
        events.map((_, i) => i + 1),
        "seq 1..N, no gap, no duplicate",
      );
      assert.deepEqual(
        events.slice(0, before.events.length).map((e) => e.seq),
        before.events.map((e) => e.seq),
        "the first part as it was",
      );
      const recovered = events.findIndex((e) => e.kind === "recorder.recovered");
      assert.equal(recovered, before.events.length, "sealed as crashed right after the first part");
      assert.equal(events.slice(0, recovered).filter((e) => e.kind === "agent_start").length, 1);
      assert.equal(events[recovered].attrs.previousStatus, "running");
      const starts = events.filter((e) => e.kind === "agent_start");
      assert.deepEqual(
        starts.map((e) => [e.attrs.durable, e.attrs.restored ?? false]),
        [
          [true, false],
          [true, true],
        ],
      );
      assert.equal(starts[0].spanId, starts[1].spanId, "the same run span");
      assert.deepEqual(kinds(events.slice(recovered + 1, recovered + 3)), ["agent_start", "recovery"]);
      const pay = events.filter((e) => e.kind === "tool_call_end" && e.attrs.toolName === "pay");
      assert.deepEqual(
        pay.map((e) => e.attrs.outcome),
        ["interrupted"],
        "the call the crash cut is reported once, as interrupted",
      );
      assert.ok(events.some((e) => e.kind === "checkpoint" && e.attrs.phase === "run_end"));

      const manifest = await readRunManifest(runDir);
      assert.equal(manifest.status, "completed");
      assert.equal(manifest.durable, true);
      assert.equal(manifest.summary!.events, events.length, "the summary counts both parts");
      assert.equal(manifest.summary!.byKind.agent_start, 2);
      assert.equal(manifest.summary!.modelCalls, events.filter((e) => e.kind === "llm_response").length);
      assert.deepEqual(Object.keys(manifest.rollup!.tools).sort(), ["pay", "search"], "the rollup covers both parts");
      assert.equal(manifest.rollup!.tools.search.calls, 1);
      assert.equal(
        readdirSync(join(runDir, "segments")).some((name) => !name.includes(".zst")),
        false,
        "every segment sealed",
      );
      assert.equal((await new RecordingStore(dir).listRuns())[0].stale, false);
    } finally {
      cleanup();
      journal.cleanup();
    }
  });

  test("a store without the run's folder records the resumed part as a new run with the same id", async () => {
    const journal = tempDir("hx-journal-");
    const elsewhere = tempDir();
    const { dir, cleanup } = tempDir();
    try {
      const runId = await crashInPay(journal.dir, [new FlightRecorderExtension({ dir: elsewhere.dir })]);
      const agent = durableAgent(journal.dir, [new FlightRecorderExtension({ dir })]);
      assert.equal((await agent.resume(runId)).status, "completed");
      await agent.close();
      const { events } = await readRun(runDirOf(dir, runId));
      assert.equal(events[0].kind, "agent_start");
      assert.equal(events[0].attrs.restored, true);
      assert.equal(
        events.some((e) => e.kind === "recorder.recovered"),
        false,
        "nothing to recover",
      );
      assert.deepEqual(
        events.map((e) => e.seq),
        events.map((_, i) => i + 1),
      );
      assert.equal((await readRunManifest(runDirOf(dir, runId))).status, "completed");
    } finally {
      cleanup();
      elsewhere.cleanup();
      journal.cleanup();
    }
  });

  test("tail retention applies at the end, over the whole run", async () => {
    const journal = tempDir("hx-journal-");
    const { dir, cleanup } = tempDir();
    try {
      const runId = await crashInPay(journal.dir, [
        new FlightRecorderExtension({ dir, retain: { always: ["failed"] } }),
      ]);
      const agent = durableAgent(journal.dir, [new FlightRecorderExtension({ dir, retain: { always: ["failed"] } })]);
      await agent.resume(runId);
      await agent.close();
      const manifest = await readRunManifest(runDirOf(dir, runId));
      assert.equal(manifest.detail, "summary", "a completed run the policy does not keep is reduced to its summary");
      assert.equal(manifest.status, "completed");
      assert.equal(manifest.rollup!.tools.pay.calls, 1);
    } finally {
      cleanup();
      journal.cleanup();
    }
  });

  test("a recording another live process holds is left alone: reported, the agent unharmed, other runs still recorded", async () => {
    const journal = tempDir("hx-journal-");
    const { dir, cleanup } = tempDir();
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      const first = new FlightRecorderExtension({ dir });
      const runId = await crashInPay(journal.dir, [first]);
      await first.flush();
      const runDir = runDirOf(dir, runId);
      writeFileSync(join(runDir, "lock"), `${holder.pid}\n`);
      const untouched = snapshot(runDir);

      const recorder = new FlightRecorderExtension({ dir });
      const agent = durableAgent(journal.dir, [recorder]);
      const errors: HarnessError[] = [];
      agent.hooks.on(HookEvent.ERROR, (ctx) => void errors.push(ctx.data.error as HarnessError));
      assert.equal((await agent.resume(runId)).status, "completed");
      const later = await agent.run("book another");
      await agent.close();

      assert.deepEqual(snapshot(runDir), untouched, "not a byte of the held recording changed");
      assert.deepEqual(
        errors.map((e) => [e.code, e.name]),
        [["run_recorded_elsewhere", "RunRecordedElsewhereError"]],
      );
      assert.match(errors[0].message, new RegExp(`live process ${holder.pid}`));
      assert.equal(recorder.failed, undefined, "the recorder goes on");
      assert.equal((await readRunManifest(runDirOf(dir, later.runId))).status, "completed");
    } finally {
      holder.kill();
      cleanup();
      journal.cleanup();
    }
  });
});
