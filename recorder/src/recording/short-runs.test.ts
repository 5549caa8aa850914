import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { FlightRecorderExtension, readRun, readRunManifest, runDirOf } from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

const run = promisify(execFile);

// A run that ends before the writer's first drain is written whole: one sealed segment straight
// from memory, then run.json. These tests hold it to the same guarantees as the streaming path.
describe("short runs are written whole", () => {
  test("one sealed segment with its sidecar, run.json last, no lock and no plain file", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir });
      const agent = scriptedAgent(echoScript(12), [recorder]);
      const result = await agent.run("short");
      await agent.close();
      const runDir = runDirOf(dir, result.runId);
      const segments = readdirSync(join(runDir, "segments")).sort();
      assert.deepEqual(segments, ["000001.ndjson.zst", "000001.ndjson.zst.sha256"]);
      assert.equal(existsSync(join(runDir, "lock")), false, "an ended run holds no lock");
      const read = await readRun(runDir);
      const manifest = await readRunManifest(runDir);
      assert.equal(manifest.status, "completed");
      assert.equal(read.events.length, manifest.summary!.events);
      assert.deepEqual(
        read.events.map((e) => e.seq),
        read.events.map((_, i) => i + 1),
      );
      assert.equal(read.events.filter((e) => e.kind === "tool_call_end").length, 12);
    } finally {
      cleanup();
    }
  });

  test("a process that exits the moment its run ends still leaves every event on disk", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const child = join(import.meta.dirname, "..", "test-support", "short-run-child.ts");
      const { stdout } = await run(process.execPath, ["--import", "tsx", child, dir, "30"]);
      const runId = stdout.trim();
      const read = await readRun(runDirOf(dir, runId));
      assert.equal((await readRunManifest(runDirOf(dir, runId))).status, "completed");
      assert.equal(read.events.filter((e) => e.kind === "tool_call_end").length, 30);
      assert.equal(read.events.at(-1)?.kind, "agent_end");
      // The exit handler wrote it (plain: `recover` or the next reader seals it), not the async writer.
      assert.ok(readdirSync(join(runDirOf(dir, runId), "segments")).includes("000001.ndjson"));
    } finally {
      cleanup();
    }
  });
});
