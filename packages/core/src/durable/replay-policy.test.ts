// Which calls a durable run may run again after a crash: only tools that declare
// `replayPolicy: "safe"`. A `recorded` tool (its result can be replayed from a recording, not its
// effect from the world) and a tool that declares nothing are treated like `never`.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { HookEvent } from "../hooks/events.js";
import type { ReplayPolicy } from "../tools/tool.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import { countingTool, durableOptions, journalDir, positionalProvider, runUntil } from "./durable-test-kit.js";

const SCRIPT = [{ toolCalls: [{ id: "c1", name: "book", input: { seat: "12A" } }] }, { text: "booked" }];

/** Crashes a run inside its `book` call, resumes it in a new agent, and says how often `book` ran and how the call ended. */
async function crashAndResume(policy: ReplayPolicy | undefined) {
  const { store, cleanup } = journalDir();
  try {
    const before = countingTool("book", policy, [1]);
    const runId = await runUntil(
      new Agent(durableOptions(store(), positionalProvider(SCRIPT), [before.tool])),
      "go",
      "tool_started",
    );
    const after = countingTool("book", policy);
    const agent = new Agent(durableOptions(store(), positionalProvider(SCRIPT), [after.tool]));
    const seen = recordEvents(agent);
    const result = await agent.resume(runId);
    await agent.close();
    const end = ofKind(seen, HookEvent.TOOL_CALL_END).find((e) => e.toolCall.id === "c1");
    return { result, runs: before.runs() + after.runs(), end, runId };
  } finally {
    cleanup();
  }
}

describe("after a crash, only a safe tool's interrupted call runs again", () => {
  for (const policy of ["recorded", undefined, "never"] as const) {
    test(`replayPolicy ${policy ?? "absent"}: the interrupted call is reported, not run a second time`, async () => {
      const { result, runs, end, runId } = await crashAndResume(policy);
      assert.equal(result.status, "completed");
      assert.equal(runs, 1, "it ran once, before the crash");
      assert.equal(end?.outcome, "interrupted");
      assert.match(end?.result.content ?? "", new RegExp(`not safe to run twice.*idempotency key ${runId}:c1`));
    });
  }

  test("replayPolicy safe: the interrupted call runs again", async () => {
    const { result, runs, end } = await crashAndResume("safe");
    assert.equal(result.status, "completed");
    assert.equal(runs, 2);
    assert.equal(end?.outcome, "executed");
  });
});
