// One definition of an error: what run.json's summary counts is what readers filter on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { FlightRecorderExtension, isErrorEvent, isFailureEvent, readRun, readRunManifest } from "../index.js";
import { scriptedAgent } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

test("a failed or unknown tool call counts as an error in run.json, and the count is the events isErrorEvent picks", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const agent = scriptedAgent(
      [
        {
          toolCalls: [
            { name: "echo", input: { text: "ok" } },
            { name: "missing_tool", input: {} },
          ],
        },
        { text: "done" },
      ],
      [new FlightRecorderExtension({ dir })],
    );
    const { runId } = await agent.run("x");
    await agent.close();
    const runDir = join(dir, "runs", runId);
    const { events } = await readRun(runDir);
    const manifest = await readRunManifest(runDir);
    assert.equal(manifest.summary?.errors, 1);
    assert.equal(events.filter(isErrorEvent).length, manifest.summary?.errors);
    assert.deepEqual(
      events.filter(isErrorEvent).map((e) => [e.kind, e.attrs.outcome]),
      [["tool_call_end", "unknown_tool"]],
    );
  } finally {
    cleanup();
  }
});

test("failures shown to a reader are the errors, a failed run's end and dropped events", () => {
  assert.equal(isErrorEvent({ kind: "agent_end", attrs: { status: "failed" } }), false);
  assert.equal(isFailureEvent({ kind: "agent_end", attrs: { status: "failed" } }), true);
  assert.equal(isFailureEvent({ kind: "recorder.dropped", attrs: { count: 3 } }), true);
  assert.equal(isErrorEvent({ kind: "tool_call_end", attrs: { outcome: "executed", isError: false } }), false);
  assert.equal(isErrorEvent({ kind: "tool_call_end", attrs: { outcome: "denied" } }), true);
  assert.equal(isErrorEvent({ kind: "error", attrs: {} }), true);
});
