import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { contentBound, ZSTD_MAX_BLOCK_BYTES, zstdDecompress } from "@harnessx/artifacts";
import { exportIncident, openBundle } from "../index.js";
import { sealSegment } from "../recording/seal.js";
import { readRun } from "../store/read-run.js";
import { eventLine, runManifest, writeHandMadeRun } from "../test-support/hand-made-run.js";
import { tempDir } from "../../../test/support/system.js";

/** A segment of `count` events with varied text, big enough for zstd to write several compressed blocks. */
function segment(runId: string, firstSeq: number, count: number): string {
  let text = "";
  for (let i = 0; i < count; i++)
    text += eventLine(runId, firstSeq + i, "tool_call_end", {
      toolName: "search",
      note: `result ${(firstSeq + i) * 7919} of ${Math.sin(firstSeq + i)}`,
    });
  return text;
}

// Export copies sealed segments' frames as they are: the events member is one frame per segment.
describe("a run of several sealed segments exports to a bundle that opens", () => {
  test("the frames are copied, the member decodes to every line in order, openBundle accepts it", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const runId = "run_segments";
      const segments = [1, 4001, 8001, 12001].map((first) => segment(runId, first, 4000));
      const runDir = writeHandMadeRun(
        dir,
        runId,
        segments,
        runManifest(runId, { status: "completed", endedAt: 1_700_000_100_000 }),
      );
      for (const name of readdirSync(join(runDir, "segments"))) await sealSegment(join(runDir, "segments", name));
      const { path } = await exportIncident({ dir, runId, reason: "segments", out: join(dir, "b.tar") });
      const bundle = await openBundle(path);
      const member = bundle.member("events.ndjson.zst")!;
      assert.equal(contentBound(member).frames, 4);
      // More header slack than one block: a reader allowing one block per member refused such bundles.
      assert.ok(contentBound(member).bytes - segments.join("").length > ZSTD_MAX_BLOCK_BYTES);
      assert.equal((await zstdDecompress(member)).toString("utf8"), segments.join(""));
      assert.deepEqual(bundle.events, (await readRun(runDir)).events);
      assert.equal(bundle.manifest.run.summary.events, 16000);
    } finally {
      cleanup();
    }
  });

  test("a segment with a line that is not an event is re-encoded from its events; the others are copied", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const runId = "run_damaged";
      const runDir = writeHandMadeRun(dir, runId, [
        segment(runId, 1, 10),
        `${eventLine(runId, 11, "error")}not json\n${eventLine(runId, 12, "agent_end")}`,
      ]);
      for (const name of readdirSync(join(runDir, "segments"))) await sealSegment(join(runDir, "segments", name));
      const bundle = await openBundle(
        (await exportIncident({ dir, runId, reason: "damage", out: join(dir, "d.tar") })).path,
      );
      assert.deepEqual(
        bundle.events.map((e) => e.seq),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      );
      assert.equal(bundle.manifest.run.summary.errors, 1);
    } finally {
      cleanup();
    }
  });

  test("a tool call that failed counts as an error in the bundle as in the run, though its line is sealed", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const runId = "run_tool_errors";
      const lines = [
        eventLine(runId, 1, "tool_call_end", { toolName: "rm", outcome: "denied", isError: true }),
        eventLine(runId, 2, "tool_call_end", { toolName: "ls", outcome: "executed", isError: false }),
        eventLine(runId, 3, "tool_call_end", { toolName: "cat", outcome: "executed", isError: true }),
      ];
      const runDir = writeHandMadeRun(dir, runId, [lines.join("")]);
      for (const name of readdirSync(join(runDir, "segments"))) await sealSegment(join(runDir, "segments", name));
      const bundle = await openBundle(
        (await exportIncident({ dir, runId, reason: "tool errors", out: join(dir, "t.tar") })).path,
      );
      assert.equal(bundle.manifest.run.summary.errors, 2);
      assert.equal(bundle.manifest.run.summary.toolCalls, 3);
    } finally {
      cleanup();
    }
  });
});
