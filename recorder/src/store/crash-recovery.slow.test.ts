import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import {
  listSegments,
  readRun,
  recover,
  RecordingStore,
  RunStillActiveError,
  type RetainPolicy,
  type RunManifest,
} from "../index.js";
import { tempDir } from "../../../test/support/system.js";

const child = new URL("../test-support/recording-child.ts", import.meta.url).pathname;

function runUntilKilled(dir: string, retain?: RetainPolicy): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ["--import", "tsx", child, dir, "100000", ...(retain ? [JSON.stringify(retain)] : [])],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let killed = false;
    proc.stdout.on("data", (chunk: Buffer) => {
      if (!killed && chunk.toString().includes("progress")) {
        killed = true;
        // Let it record a while longer (and seal a few segments) before the kill.
        setTimeout(() => proc.kill("SIGKILL"), 700);
      }
    });
    proc.on("error", reject);
    proc.on("exit", (_code, signal) =>
      signal === "SIGKILL" ? resolve() : reject(new Error(`child ended without being killed (${signal})`)),
    );
  });
}

describe("a run killed with SIGKILL keeps what was written and is recovered as crashed", () => {
  test("events before the kill are readable; recover seals and marks the run crashed", async () => {
    const { dir, cleanup } = tempDir();
    try {
      await runUntilKilled(dir);
      const store = new RecordingStore(dir);
      const [listing] = await store.listRuns();
      assert.equal(listing.status, "running");
      assert.equal(listing.stale, true, "lock held by a dead pid");
      const runDir = listing.dir;
      // Simulate the torn line a kill mid-write leaves (in the active segment, or a fresh one
      // when the kill came just after a seal).
      // The reader's view decides: a plain file the kill left beside its finished seal is not read.
      const segments = await listSegments(runDir);
      const newest = segments[segments.length - 1];
      const active = newest.sealed ? `${String(newest.index + 1).padStart(6, "0")}.ndjson` : basename(newest.path);
      appendFileSync(join(runDir, "segments", active), '{"v":1,"seq":999999999,"kind":"tor');
      const before = await readRun(runDir);
      assert.ok(before.tornBytes > 0, "torn last line cut");
      assert.ok(before.events.length > 100, `recorded ${before.events.length} events before the kill`);
      assert.deepEqual(
        before.events.map((e) => e.seq),
        before.events.map((_, i) => i + 1),
        "no gap before the kill",
      );
      assert.ok(
        before.segments.some((s) => s.sealed),
        "some segments were sealed while running",
      );

      const result = await recover(runDir);
      assert.equal(result.status, "crashed");
      const manifest = JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")) as RunManifest;
      assert.equal(manifest.status, "crashed");
      assert.equal(existsSync(join(runDir, "lock")), false);
      assert.ok(
        readdirSync(join(runDir, "segments")).every((n) => !n.endsWith(".ndjson")),
        "every segment sealed",
      );
      const after = await readRun(runDir);
      assert.equal(after.events.length, before.events.length + 1);
      const last = after.events[after.events.length - 1];
      assert.equal(last.kind, "recorder.recovered");
      assert.equal(last.seq, before.events.length + 1);
      assert.equal(manifest.summary!.events, after.events.length);
      assert.equal((await recover(runDir)).recovered, false, "a sealed run is left alone");
    } finally {
      cleanup();
    }
  });

  test("a process that exits with a run open marks it incomplete and releases the lock", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const entry = new URL("../index.ts", import.meta.url).pathname;
      const script = `import { Agent, ScriptedProvider, tool } from "@harnessx/core";
        import { FlightRecorderExtension } from ${JSON.stringify(entry)};
        const risky = tool({ name: "risky", description: "", permission: "ask", execute: () => "x" });
        const agent = new Agent({ provider: new ScriptedProvider([{ toolCalls: [{ id: "c1", name: "risky", input: {} }] }]), tools: [risky], extensions: [new FlightRecorderExtension({ dir: ${JSON.stringify(dir)} })] });
        const r = await agent.run("wait for approval");
        console.log(r.status);
        process.exit(0);`;
      const { spawnSync } = await import("node:child_process");
      const out = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        encoding: "utf8",
      });
      assert.equal(out.stdout.trim(), "awaiting_approval", out.stderr);
      const [run] = await new RecordingStore(dir).listRuns();
      assert.equal(run.status, "incomplete");
      assert.equal(run.stale, false);
      assert.equal(existsSync(join(run.dir, "lock")), false);
      assert.ok(run.events >= 4, `events: ${run.events}`);
    } finally {
      cleanup();
    }
  });

  test("recover refuses a run whose recording process is alive", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { mkdirSync, writeFileSync } = await import("node:fs");
      const runDir = join(dir, "runs", "run_live");
      mkdirSync(join(runDir, "segments"), { recursive: true });
      writeFileSync(join(runDir, "lock"), String(process.ppid));
      writeFileSync(join(runDir, "run.json"), JSON.stringify({ runId: "run_live", status: "running", runSpanId: "x" }));
      await assert.rejects(recover(runDir), RunStillActiveError);
    } finally {
      cleanup();
    }
  });
});

describe("tail retention also after a crash and recover", () => {
  test("a killed run is kept when crashed is in always, and reduced (with a rollup of its events) when not", async () => {
    for (const always of [["crashed"], []] as const) {
      const { dir, cleanup } = tempDir();
      try {
        await runUntilKilled(dir, { always: [...always] });
        const store = new RecordingStore(dir);
        const [listing] = await store.listRuns();
        assert.equal(listing.stale, true);
        assert.deepEqual(
          (JSON.parse(readFileSync(join(listing.dir, "run.json"), "utf8")) as RunManifest).retain,
          { always },
          "the policy is on disk from the run's start",
        );
        const events = (await readRun(listing.dir)).events.length;
        const result = await recover(listing.dir);
        assert.equal(result.status, "crashed");
        assert.equal(result.reduced, always.length === 0);
        const manifest = JSON.parse(readFileSync(join(listing.dir, "run.json"), "utf8")) as RunManifest;
        if (always.length) {
          assert.equal(manifest.detail, undefined);
          assert.equal((await readRun(listing.dir)).events.length, events + 1);
        } else {
          assert.equal(manifest.detail, "summary");
          assert.equal(existsSync(join(listing.dir, "segments")), false);
          assert.equal(
            manifest.summary!.events,
            events + 1,
            "the summary counts every event, the recovery line included",
          );
          assert.equal(manifest.rollup!.tools.echo.calls, manifest.summary!.toolCalls, "a rollup of the events it had");
          assert.deepEqual(await store.stats(), { runs: 1, kept: 0, reduced: 1, invalid: 0 });
        }
        assert.equal((await recover(listing.dir)).recovered, false, "a second recover changes nothing");
      } finally {
        cleanup();
      }
    }
  });

  test("a run that ended just before its process exited is reduced by recover (and recoverStale)", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const entry = new URL("../index.ts", import.meta.url).pathname;
      // process.exit right after the run: run.json is written at exit, the reduction (asynchronous, after it) never runs.
      const script = `import { Agent, ScriptedProvider } from "@harnessx/core";
        import { FlightRecorderExtension } from ${JSON.stringify(entry)};
        const agent = () => new Agent({ provider: new ScriptedProvider([{ text: "ok" }]), extensions: [new FlightRecorderExtension({ dir: ${JSON.stringify(dir)}, retain: { always: ["failed"] } })] });
        const closed = agent();
        console.log((await closed.run("a")).status);
        await closed.close();
        console.log((await agent().run("b")).status);
        process.exit(0);`;
      const { spawnSync } = await import("node:child_process");
      const out = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        encoding: "utf8",
      });
      assert.equal(out.stdout.trim(), "completed\ncompleted", out.stderr);
      const store = new RecordingStore(dir);
      const runs = await store.listRuns();
      assert.equal(runs.length, 2);
      // The first run's agent was closed (its recorder finished, reduction included); the second's process exited first.
      const pending = runs.filter((r) => r.detail === "full");
      assert.equal(pending.length, 1, JSON.stringify(runs.map((r) => [r.runId, r.status, r.detail])));
      assert.equal(pending[0].status, "completed");
      const [result] = await store.recoverStale();
      assert.equal(result.runId, pending[0].runId);
      assert.equal(result.reduced, true);
      assert.equal((await store.getRun(pending[0].runId)).detail, "summary");
      assert.deepEqual(await store.stats(), { runs: 2, kept: 0, reduced: 2, invalid: 0 });
    } finally {
      cleanup();
    }
  });
});
