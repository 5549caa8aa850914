import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { HookEvent } from "../hooks/events.js";
import type { Extension } from "../extensions/extension.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import type { ScriptedReply } from "../providers/scripted.js";
import { countingTool, durableOptions, journalDir, positionalProvider, runUntil } from "./durable-test-kit.js";

const SCRIPT: ScriptedReply[] = [
  { toolCalls: [{ id: "c1", name: "search", input: { q: "a" } }] },
  { toolCalls: [{ id: "c2", name: "pay", input: { amount: 5 } }, { id: "c3", name: "search", input: { q: "b" } }] },
  { text: "all done" },
];

/** The conversation of the same script run without a crash. */
async function uninterrupted(): Promise<unknown> {
  const { store, cleanup } = journalDir();
  try {
    const agent = new Agent(durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, countingTool("pay", "never").tool]));
    assert.equal((await agent.run("go")).status, "completed");
    await agent.close();
    return agent.memory.entries;
  } finally {
    cleanup();
  }
}

describe("a durable run resumed in a new agent goes on from its last committed phase", () => {
  test("a safe call interrupted by the crash runs again, with the same idempotency key; the conversation equals an uninterrupted run's", async () => {
    const { store, cleanup } = journalDir();
    try {
      const search = countingTool("search", "safe", [1]);
      const runId = await runUntil(new Agent(durableOptions(store(), positionalProvider(SCRIPT), [search.tool, countingTool("pay", "never").tool])), "go", "tool_started");
      const search2 = countingTool("search", "safe");
      const pay2 = countingTool("pay", "never");
      const model = positionalProvider(SCRIPT);
      const agent = new Agent(durableOptions(store(), model, [search2.tool, pay2.tool]));
      const seen = recordEvents(agent);
      const result = await agent.resume(runId);
      assert.equal(result.status, "completed");
      assert.equal(result.runId, runId);
      assert.equal(result.text, "all done");
      assert.deepEqual(search2.keys, [`${runId}:c1`, `${runId}:c3`], "c1 ran again with the key it had before the crash");
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
      const runId = await runUntil(new Agent(durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, pay.tool])), "go", "tool_started", 2);
      const pay2 = countingTool("pay", "never");
      const agent = new Agent(durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, pay2.tool]));
      const seen = recordEvents(agent);
      const result = await agent.resume(runId);
      assert.equal(result.status, "completed");
      assert.equal(pay.runs() + pay2.runs(), 1, "the payment ran once, before the crash");
      const end = ofKind(seen, HookEvent.TOOL_CALL_END).find((e) => e.toolCall.id === "c2")!;
      assert.equal(end.outcome, "interrupted");
      assert.match(end.result.content, new RegExp(`not safe to run twice.*idempotency key ${runId}:c2.*It was not run again`));
      await agent.close();
    } finally {
      cleanup();
    }
  });

  test("with interrupted: ask, the interrupted call waits for a human; approved, it runs again with its key", async () => {
    const { store, cleanup } = journalDir();
    try {
      const runId = await runUntil(new Agent(durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, countingTool("pay", "never", [1]).tool])), "go", "tool_started", 2);
      const pay2 = countingTool("pay", "never");
      const agent = new Agent({ ...durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, pay2.tool]), durable: { store: store(), interrupted: "ask" } });
      const waiting = await agent.resume(runId);
      assert.equal(waiting.status, "awaiting_approval");
      assert.deepEqual(waiting.pending.map((p) => p.id), ["c2"]);
      assert.match(waiting.pending[0].reason, /was running when the process stopped.*approve to run it again/);
      const done = await agent.resume({ c2: "approve" });
      assert.equal(done.status, "completed");
      assert.deepEqual(pay2.keys, [`${runId}:c2`]);
      await agent.close();
    } finally {
      cleanup();
    }
  });

  test("a committed tool outcome is reused: its handler does not run again, result middleware does", async () => {
    const { store, cleanup } = journalDir();
    try {
      // c2 (pay) finishes and is committed; c3 (search) hangs: the crash comes after pay's outcome.
      const runId = await runUntil(new Agent(durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe", [2]).tool, countingTool("pay", "never").tool])), "go", "tool_outcome", 2);
      const pay2 = countingTool("pay", "never");
      const agent = new Agent(durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, pay2.tool]));
      const processed: string[] = [];
      agent.middleware.add({ afterToolExecution: async (r) => { processed.push(r.toolCallId); return r; } });
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
      const script: ScriptedReply[] = [{ toolCalls: [{ id: "d1", name: "delete", input: {} }, { id: "s1", name: "search", input: {} }] }, { text: "deleted" }];
      const first = new Agent(durableOptions(store(), positionalProvider(script), [countingTool("delete", "never", [], "ask").tool, countingTool("search", "safe", [2]).tool]));
      const paused = await first.run("clean");
      assert.equal(paused.status, "awaiting_approval");
      const second = new Agent(durableOptions(store(), positionalProvider(script), [countingTool("delete", "never", [1], "ask").tool, countingTool("search", "safe").tool]));
      const again = await second.resume(paused.runId);
      assert.equal(again.status, "awaiting_approval", "rebuilt, the run waits for the same call");
      assert.deepEqual(again.pending.map((p) => p.id), ["d1"]);
      // Approved, then the process dies while delete runs (it hangs): the approval was committed.
      const approved = new Promise<void>((resolve) => second.hooks.on(HookEvent.CHECKPOINT, (ctx) => void (ctx.data.phase === "tool_started" && resolve())));
      void second.resume({ d1: "approve" });
      await approved;
      const del3 = countingTool("delete", "never", [], "ask");
      const third = new Agent({ ...durableOptions(store(), positionalProvider(script), [del3.tool, countingTool("search", "safe").tool]), durable: { store: store(), interrupted: "ask" } });
      const asked = await third.resume(paused.runId);
      assert.equal(asked.status, "awaiting_approval", "the approval given before the crash does not cover a run of the call after it");
      assert.match(asked.pending[0].reason, /was running when the process stopped/);
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
      const runId = await runUntil(new Agent(durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, countingTool("pay", "never", [1]).tool], { extensions: [counter({ steps: 0 })] })), "go", "tool_started", 2);
      const agent = new Agent(durableOptions(store(), positionalProvider(SCRIPT), [countingTool("search", "safe").tool, countingTool("pay", "never").tool], { extensions: [counter({ steps: 0 })] }));
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
      const agent = new Agent(durableOptions(store(), positionalProvider([{ toolCalls: [{ id: "c1", name: "search", input: { key: secret } }] }, { text: `the key is ${secret}` }]), [leak.tool]));
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
