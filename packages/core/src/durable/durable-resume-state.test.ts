// What a durable run resumed in a new agent takes back from its journal: committed tool outcomes
// (the handler does not run again), committed approvals, extension state; and what the journal
// never holds: a secret.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { HookEvent } from "../hooks/events.js";
import type { Extension } from "../extensions/extension.js";
import type { ScriptedReply } from "../providers/scripted.js";
import { SCRIPT, uninterrupted } from "../test-support/resume-script.js";
import { countingTool, durableOptions, journalDir, positionalProvider, runUntil } from "./durable-test-kit.js";

describe("a durable run resumed in a new agent goes on from its last committed phase", () => {
  test("a committed tool outcome is reused: its handler does not run again, result middleware does", async () => {
    const { store, cleanup } = journalDir();
    try {
      // c2 (pay) finishes and is committed; c3 (search) hangs: the crash comes after pay's outcome.
      const runId = await runUntil(
        new Agent(
          durableOptions(store(), positionalProvider(SCRIPT), [
            countingTool("search", "safe", [2]).tool,
            countingTool("pay", "never").tool,
          ]),
        ),
        "go",
        "tool_outcome",
        2,
      );
      const pay2 = countingTool("pay", "never");
      const agent = new Agent(
        durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, pay2.tool]),
      );
      const processed: string[] = [];
      agent.middleware.add({
        afterToolExecution: async (r) => {
          processed.push(r.toolCallId);
          return r;
        },
      });
      const result = await agent.resume(runId);
      assert.equal(result.status, "completed");
      assert.equal(pay2.runs(), 0, "pay's committed outcome was used");
      assert.deepEqual(processed, ["c2", "c3"], "result middleware ran again on the committed outcome");
      assert.deepEqual(agent.memory.entries, await uninterrupted());
      await agent.close();
    } finally {
      cleanup();
    }
  });

  test("a run paused for approval resumes paused; decisions committed before a crash are not asked again", async () => {
    const { store, cleanup } = journalDir();
    try {
      const script: ScriptedReply[] = [
        {
          toolCalls: [
            { id: "d1", name: "delete", input: {} },
            { id: "s1", name: "search", input: {} },
          ],
        },
        { text: "deleted" },
      ];
      const first = new Agent(
        durableOptions(store(), positionalProvider(script), [
          countingTool("delete", "never", [], "ask").tool,
          countingTool("search", "safe", [2]).tool,
        ]),
      );
      const paused = await first.run("clean");
      assert.equal(paused.status, "awaiting_approval");
      const second = new Agent(
        durableOptions(store(), positionalProvider(script), [
          countingTool("delete", "never", [1], "ask").tool,
          countingTool("search", "safe").tool,
        ]),
      );
      const again = await second.resume(paused.runId);
      assert.equal(again.status, "awaiting_approval", "rebuilt, the run waits for the same call");
      assert.deepEqual(
        again.pending.map((p) => p.id),
        ["d1"],
      );
      // Approved, then the process dies while delete runs (it hangs): the approval was committed.
      const approved = new Promise<void>((resolve) =>
        second.hooks.on(HookEvent.CHECKPOINT, (ctx) => void (ctx.data.phase === "tool_started" && resolve())),
      );
      void second.resume({ d1: "approve" });
      await approved;
      const del3 = countingTool("delete", "never", [], "ask");
      const third = new Agent({
        ...durableOptions(store(), positionalProvider(script), [del3.tool, countingTool("search", "safe").tool]),
        durable: { store: store(), interrupted: "ask" },
      });
      const asked = await third.resume(paused.runId);
      assert.equal(
        asked.status,
        "awaiting_approval",
        "the approval given before the crash does not cover a run of the call after it",
      );
      assert.match(asked.pending[0]!.reason, /was running when the process stopped/);
      await third.close();
    } finally {
      cleanup();
    }
  });

  test("extension state saved at the last snapshot comes back through onLoadSession", async () => {
    const { store, cleanup } = journalDir();
    try {
      const loaded: unknown[] = [];
      const counter = (tally: { steps: number }): Extension => ({
        name: "step_counter",
        priority: 0,
        stateVersion: 1,
        install: (ctx) => void ctx.onHook(HookEvent.LOOP_ITERATION_START, () => void tally.steps++),
        onSaveSession: () => ({ steps: tally.steps }),
        onLoadSession: (_ctx, state) => {
          loaded.push(state);
          tally.steps = (state as { steps: number }).steps;
        },
      });
      const runId = await runUntil(
        new Agent(
          durableOptions(
            store(),
            positionalProvider(SCRIPT),
            [countingTool("search", "safe").tool, countingTool("pay", "never", [1]).tool],
            { extensions: [counter({ steps: 0 })] },
          ),
        ),
        "go",
        "tool_started",
        2,
      );
      const agent = new Agent(
        durableOptions(
          store(),
          positionalProvider(SCRIPT),
          [countingTool("search", "safe").tool, countingTool("pay", "never").tool],
          { extensions: [counter({ steps: 0 })] },
        ),
      );
      await agent.resume(runId);
      assert.deepEqual(loaded, [{ steps: 1 }], "the snapshot at the top of step 2 saw one step");
      await agent.close();
    } finally {
      cleanup();
    }
  });
});

describe("the journal holds no secret", () => {
  test("a secret in a tool result and in the input is redacted in the journal's bytes", async () => {
    const { dir, store, cleanup } = journalDir();
    try {
      const secret = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0";
      const leak = countingTool("search", "safe");
      const agent = new Agent(
        durableOptions(
          store(),
          positionalProvider([
            { toolCalls: [{ id: "c1", name: "search", input: { key: secret } }] },
            { text: `the key is ${secret}` },
          ]),
          [leak.tool],
        ),
      );
      const result = await agent.run(`use ${secret}`);
      await agent.close();
      const journal = readFileSync(join(dir, `${result.runId}.ndjson`), "utf8");
      assert.ok(journal.includes("tool_outcome") && journal.includes("model_reply"));
      assert.ok(!journal.includes(secret), "the secret never reached the journal");
    } finally {
      cleanup();
    }
  });
});
