import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { FlightRecorderExtension, openSegmentTables, runDirOf } from "../index.js";
import { tempDir } from "../../../test/support/system.js";

const { dir, cleanup } = tempDir();
after(cleanup);

describe("SQL over a run still being recorded", () => {
  test("the tables are a snapshot: the open segment sealed after they were opened still answers", async () => {
    const risky = tool({ name: "risky", description: "needs approval", permission: "ask", execute: () => "done" });
    const recorder = new FlightRecorderExtension({ dir });
    const agent = new Agent({
      provider: new ScriptedProvider([{ toolCalls: [{ id: "c1", name: "risky", input: {} }] }, { text: "finished" }]),
      tools: [risky],
      extensions: [recorder],
    });
    const paused = await agent.run("go");
    assert.equal(paused.status, "awaiting_approval");
    await recorder.flush();
    const runDir = runDirOf(dir, paused.runId);
    const segments = () => readdirSync(join(runDir, "segments"));
    assert.ok(
      segments().some((f) => f.endsWith(".ndjson")),
      "the run's segment is open (plain)",
    );

    const tables = await openSegmentTables(dir, [runDir], { readOnly: true });
    try {
      const before = await tables.connection.runAndReadAll("SELECT count(*)::INTEGER AS n FROM events");
      await agent.resume({ c1: "approve" });
      await agent.close();
      assert.ok(!segments().some((f) => f.endsWith(".ndjson")), "closing sealed the segment: the plain file is gone");
      // Every table still answers, from what the run had written when they were opened.
      const again = await tables.connection.runAndReadAll("SELECT count(*)::INTEGER AS n FROM events");
      assert.deepEqual(again.getRowObjectsJS(), before.getRowObjectsJS());
      const spans = await tables.connection.runAndReadAll("SELECT name, status FROM spans WHERE kind = 'run'");
      assert.deepEqual(spans.getRowObjectsJS(), [{ name: "invoke_agent agent", status: "open" }]);
      const lines = await tables.connection.runAndReadAll("SELECT count(*)::INTEGER AS n FROM lines");
      assert.deepEqual(lines.getRowObjectsJS(), before.getRowObjectsJS());
    } finally {
      tables.close();
    }
    assert.ok(existsSync(runDir));
  });
});
