// A durable run resumed in a new agent after a crash in the middle of a tool call: a safe call
// runs again with the same idempotency key, a never call is not run again, and with
// interrupted: ask the call waits for a human.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { HookEvent } from "../hooks/events.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import { SCRIPT, uninterrupted } from "../test-support/resume-script.js";
import { countingTool, durableOptions, journalDir, positionalProvider, runUntil } from "./durable-test-kit.js";

describe("a durable run resumed in a new agent goes on from its last committed phase", () => {
  test("a safe call interrupted by the crash runs again, with the same idempotency key; the conversation equals an uninterrupted run's", async () => {
    const { store, cleanup } = journalDir();
    try {
      const search = countingTool("search", "safe", [1]);
      const runId = await runUntil(
        new Agent(
          durableOptions(store(), positionalProvider(SCRIPT), [search.tool, countingTool("pay", "never").tool]),
        ),
        "go",
        "tool_started",
      );
      const search2 = countingTool("search", "safe");
      const pay2 = countingTool("pay", "never");
      const model = positionalProvider(SCRIPT);
      const agent = new Agent(durableOptions(store(), model, [search2.tool, pay2.tool]));
      const seen = recordEvents(agent);
      const result = await agent.resume(runId);
      assert.equal(result.status, "completed");
      assert.equal(result.runId, runId);
      assert.equal(result.text, "all done");
      assert.deepEqual(
        search2.keys,
        [`${runId}:c1`, `${runId}:c3`],
        "c1 ran again with the key it had before the crash",
      );
      assert.deepEqual(search.keys, [`${runId}:c1`]);
      assert.equal(pay2.runs(), 1);
      assert.equal(model.position, 2, "the reply of step 1 came from the journal: only steps 2 and 3 asked the model");
      assert.deepEqual(agent.memory.entries, await uninterrupted());
      const [start] = ofKind(seen, HookEvent.AGENT_START);
      assert.equal(start.resumed, true);
      assert.equal(start.restored, true);
      const [recovery] = ofKind(seen, HookEvent.RECOVERY);
      assert.equal(recovery.reason, "resumed");
      assert.match(recovery.detail!, /model reply of step 1 taken from the journal; 1 call\(s\) interrupted/);
      assert.equal(result.modelCalls, 3, "the counters go on from the snapshot");
      await agent.close();
    } finally {
      cleanup();
    }
  });

  test("a never call interrupted by the crash is not run again: the model gets an error naming its idempotency key", async () => {
    const { store, cleanup } = journalDir();
    try {
      const pay = countingTool("pay", "never", [1]);
      const runId = await runUntil(
        new Agent(durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, pay.tool])),
        "go",
        "tool_started",
        2,
      );
      const pay2 = countingTool("pay", "never");
      const agent = new Agent(
        durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, pay2.tool]),
      );
      const seen = recordEvents(agent);
      const result = await agent.resume(runId);
      assert.equal(result.status, "completed");
      assert.equal(pay.runs() + pay2.runs(), 1, "the payment ran once, before the crash");
      const end = ofKind(seen, HookEvent.TOOL_CALL_END).find((e) => e.toolCall.id === "c2")!;
      assert.equal(end.outcome, "interrupted");
      assert.match(
        end.result.content,
        new RegExp(`not safe to run twice.*idempotency key ${runId}:c2.*It was not run again`),
      );
      await agent.close();
    } finally {
      cleanup();
    }
  });

  test("with interrupted: ask, the interrupted call waits for a human; approved, it runs again with its key", async () => {
    const { store, cleanup } = journalDir();
    try {
      const runId = await runUntil(
        new Agent(
          durableOptions(store(), positionalProvider(SCRIPT), [
            countingTool("search", "safe").tool,
            countingTool("pay", "never", [1]).tool,
          ]),
        ),
        "go",
        "tool_started",
        2,
      );
      const pay2 = countingTool("pay", "never");
      const agent = new Agent({
        ...durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, pay2.tool]),
        durable: { store: store(), interrupted: "ask" },
      });
      const waiting = await agent.resume(runId);
      assert.equal(waiting.status, "awaiting_approval");
      assert.deepEqual(
        waiting.pending.map((p) => p.id),
        ["c2"],
      );
      assert.match(waiting.pending[0].reason, /was running when the process stopped.*approve to run it again/);
      const done = await agent.resume({ c2: "approve" });
      assert.equal(done.status, "completed");
      assert.deepEqual(pay2.keys, [`${runId}:c2`]);
      await agent.close();
    } finally {
      cleanup();
    }
  });
});
