// A run written from events a program holds (a scrubbed copy): sealed segments the readers
// verify and export copies, the same events back in order, run.json last.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  exportIncident,
  FlightRecorderExtension,
  openBundle,
  readRun,
  readRunManifest,
  SealedRunWriter,
} from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

describe("SealedRunWriter", () => {
  test("copies a recorded run into sealed segments of the size asked, readable and exportable", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const agent = scriptedAgent(echoScript(6), [new FlightRecorderExtension({ dir: join(dir, "source") })]);
      const { runId } = await agent.run("copy me");
      await agent.close();
      const source = await readRun(join(dir, "source", "runs", runId));
      const manifest = await readRunManifest(join(dir, "source", "runs", runId));

      const writer = new SealedRunWriter(join(dir, "copy"), runId, { segmentBytes: 1024 });
      for (const event of source.events) await writer.append(event);
      assert.equal(existsSync(join(writer.runDir, "run.json")), false, "run.json comes last");
      await writer.finish(manifest);

      const files = readdirSync(join(writer.runDir, "segments"));
      assert.ok(files.filter((f) => f.endsWith(".ndjson.zst")).length > 1, `several segments: ${files.join(", ")}`);
      assert.equal(
        files.filter((f) => f.endsWith(".zst.sha256")).length,
        files.filter((f) => f.endsWith(".ndjson.zst")).length,
      );
      const copy = await readRun(writer.runDir);
      assert.deepEqual(copy.events, source.events);
      assert.ok(
        copy.segments.every((s) => s.sealed && s.info !== undefined),
        "every segment sealed with its sidecar",
      );

      const bundle = await exportIncident({
        dir: join(dir, "copy"),
        runId,
        reason: "test",
        out: join(dir, "copy.tar"),
      });
      assert.equal(bundle.events, source.events.length);
      assert.deepEqual((await openBundle(bundle.path)).events, source.events);
    } finally {
      cleanup();
    }
  });
});
