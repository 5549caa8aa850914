// A resumed run reuses what its journal committed for the step it stopped in, and only for that
// step: the later steps run as in any run, even when the model gives their calls the same ids.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { HookEvent } from "../hooks/events.js";
import type { ScriptedReply } from "../providers/scripted.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import { countingTool, durableOptions, journalDir, positionalProvider, runUntil } from "./durable-test-kit.js";

describe("what a resumed run reuses belongs to the step it stopped in", () => {
  test("a later step's call with the id of a call reused from the journal runs (a model may number its calls per reply)", async () => {
    const { store, cleanup } = journalDir();
    // Step 1: pay (committed) then search (the crash); step 2 calls pay again under the same id.
    const script: ScriptedReply[] = [
      { toolCalls: [{ id: "call_0", name: "pay", input: { amount: 5 } }, { id: "call_1", name: "search", input: {} }] },
      { toolCalls: [{ id: "call_0", name: "pay", input: { amount: 7 } }] },
      { text: "paid twice" },
    ];
    try {
      const pay = countingTool("pay", "never");
      const runId = await runUntil(new Agent(durableOptions(store(), positionalProvider(script), [pay.tool, countingTool("search", "safe", [1]).tool])), "go", "tool_started", 2);
      const pay2 = countingTool("pay", "never");
      const agent = new Agent(durableOptions(store(), positionalProvider(script), [pay2.tool, countingTool("search", "safe").tool]));
      const seen = recordEvents(agent);
      const result = await agent.resume(runId);
      assert.equal(result.status, "completed");
      assert.equal(pay.runs(), 1, "step 1's payment ran before the crash");
      assert.equal(pay2.runs(), 1, "step 2's payment ran after the resume: it was never interrupted");
      assert.deepEqual(ofKind(seen, HookEvent.TOOL_CALL_END).map((e) => e.outcome), ["executed", "executed"], "step 1's pay was reused (no end event), search ran again, step 2's pay ran");
      await agent.close();
    } finally {
      cleanup();
    }
  });
});
