import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { childRunsOf, FlightRecorderExtension } from "../index.js";
import { linksDirOf } from "../format/layout.js";
import { runManifest, writeHandMadeRun } from "../test-support/hand-made-run.js";
import { tempDir } from "../../../test/support/system.js";

describe("a run's children are found through the store's links index", () => {
  test("a recorded subagent run is indexed under its parent; an unindexed or planted entry is not a child", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const child = new Agent({
        name: "child",
        provider: new ScriptedProvider([{ text: "child answer" }]),
        extensions: [new FlightRecorderExtension({ dir })],
      });
      const parent = new Agent({
        name: "parent",
        provider: new ScriptedProvider([{ toolCalls: [{ name: "ask", input: { input: "help" } }] }, { text: "done" }]),
        tools: [child.asTool({ name: "ask", description: "asks the child." })],
        extensions: [new FlightRecorderExtension({ dir })],
      });
      const { runId } = await parent.run("go");
      await Promise.all([parent.close(), child.close()]);
      const found = await childRunsOf(dir, runId);
      assert.equal(found.length, 1, "the child's recorder indexed it");

      // A run naming the parent but absent from the index is not read; a planted entry for a run of another parent is refused.
      writeHandMadeRun(dir, "run_unindexed", [], runManifest("run_unindexed", { parentRunId: runId }));
      writeHandMadeRun(dir, "run_other", [], runManifest("run_other", { parentRunId: "run_someone_else" }));
      mkdirSync(linksDirOf(dir, runId), { recursive: true });
      writeFileSync(join(linksDirOf(dir, runId), "run_other"), "");
      writeFileSync(join(linksDirOf(dir, runId), "run_missing"), "");
      assert.deepEqual(
        (await childRunsOf(dir, runId)).map((c) => c.runId),
        found.map((c) => c.runId),
      );
    } finally {
      cleanup();
    }
  });
});
