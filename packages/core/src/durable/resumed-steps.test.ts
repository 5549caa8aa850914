// A resumed run reuses what its journal committed for the step it stopped in, and only for that
// step: the later steps run as in any run, even when the model gives their calls the same ids.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { defineExtension } from "../extensions/extension.js";
import { HookEvent } from "../hooks/events.js";
import { PermissionManager } from "../permissions/permission-manager.js";
import type { ScriptedReply } from "../providers/scripted.js";
import type { SpanContext } from "../spans/span-context.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import { countingTool, durableOptions, journalDir, positionalProvider, runUntil } from "./durable-test-kit.js";
import { newCounters } from "./restored-run.js";

// Step 1 calls search twice, step 2 answers; the crash comes in the second search.
const TWO_SEARCHES: ScriptedReply[] = [
  { toolCalls: [{ id: "c1", name: "search", input: { q: "a" } }] },
  { toolCalls: [{ id: "c2", name: "search", input: { q: "b" } }] },
  { text: "found" },
];

describe("what a resumed run reuses belongs to the step it stopped in", () => {
  test("a later step's call with the id of a call reused from the journal runs (a model may number its calls per reply)", async () => {
    const { store, cleanup } = journalDir();
    // Step 1: pay (committed) then search (the crash); step 2 calls pay again under the same id.
    const script: ScriptedReply[] = [
      {
        toolCalls: [
          { id: "call_0", name: "pay", input: { amount: 5 } },
          { id: "call_1", name: "search", input: {} },
        ],
      },
      { toolCalls: [{ id: "call_0", name: "pay", input: { amount: 7 } }] },
      { text: "paid twice" },
    ];
    try {
      const pay = countingTool("pay", "never");
      const runId = await runUntil(
        new Agent(
          durableOptions(store(), positionalProvider(script), [pay.tool, countingTool("search", "safe", [1]).tool]),
        ),
        "go",
        "tool_started",
        2,
      );
      const pay2 = countingTool("pay", "never");
      const agent = new Agent(
        durableOptions(store(), positionalProvider(script), [pay2.tool, countingTool("search", "safe").tool]),
      );
      const seen = recordEvents(agent);
      const result = await agent.resume(runId);
      assert.equal(result.status, "completed");
      assert.equal(pay.runs(), 1, "step 1's payment ran before the crash");
      assert.equal(pay2.runs(), 1, "step 2's payment ran after the resume: it was never interrupted");
      assert.deepEqual(
        ofKind(seen, HookEvent.TOOL_CALL_END).map((e) => e.outcome),
        ["executed", "executed"],
        "step 1's pay was reused (no end event), search ran again, step 2's pay ran",
      );
      await agent.close();
    } finally {
      cleanup();
    }
  });
});

describe("a resumed run goes on from its journal", () => {
  test("its first step builds on the restored snapshot: no new one, and the next is a delta on it", async () => {
    const { dir, store, cleanup } = journalDir();
    try {
      const runId = await runUntil(
        new Agent(
          durableOptions(store(), positionalProvider(TWO_SEARCHES), [countingTool("search", "safe", [2]).tool]),
        ),
        "go",
        "tool_started",
        2,
      );
      const before = readFileSync(join(dir, `${runId}.ndjson`), "utf8")
        .trim()
        .split("\n").length;
      const agent = new Agent(
        durableOptions(store(), positionalProvider(TWO_SEARCHES), [countingTool("search", "safe").tool]),
      );
      assert.equal((await agent.resume(runId)).status, "completed");
      await agent.close();
      const after = readFileSync(join(dir, `${runId}.ndjson`), "utf8")
        .trim()
        .split("\n")
        .slice(before)
        .map((l) => JSON.parse(l) as { phase: string; keep?: number; entries?: unknown[] });
      assert.deepEqual(
        after.map((l) => l.phase),
        ["tool_started", "tool_outcome", "snapshot", "model_reply", "run_end"],
        "step 2 goes on without a snapshot of its own; step 3 takes one",
      );
      const snapshot = after.find((l) => l.phase === "snapshot")!;
      assert.deepEqual(
        [snapshot.keep, snapshot.entries!.length],
        [3, 2],
        "step 3's snapshot keeps the 3 restored entries and adds the 2 of step 2",
      );
    } finally {
      cleanup();
    }
  });

  test("it keeps its trace, span and parent span ids, without the extension that gave them", async () => {
    const { store, cleanup } = journalDir();
    try {
      const ids = {
        traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
        spanId: "00f067aa0ba902b7",
        parentSpanId: "b7ad6b7169203331",
      };
      const giver = defineExtension(
        "span_ids",
        (ctx) => void ctx.useSpanIds({ open: (start) => (start.role === "agent" ? ids : undefined) }),
      );
      const first = new Agent(
        durableOptions(store(), positionalProvider(TWO_SEARCHES), [countingTool("search", "safe", [1]).tool], {
          extensions: [giver],
        }),
      );
      const spans: Array<SpanContext | undefined> = [];
      first.hooks.on(HookEvent.AGENT_START, (ctx) => void spans.push(ctx.span));
      const runId = await runUntil(first, "go", "tool_started");
      const agent = new Agent(
        durableOptions(store(), positionalProvider(TWO_SEARCHES), [countingTool("search", "safe").tool]),
      );
      agent.hooks.on(HookEvent.AGENT_START, (ctx) => void spans.push(ctx.span));
      assert.equal((await agent.resume(runId)).status, "completed");
      await agent.close();
      assert.deepEqual(spans, [
        { ...ids, role: "agent" },
        { ...ids, role: "agent" },
      ]);
    } finally {
      cleanup();
    }
  });

  test("approvals committed before the crash stand: a call approved but not yet started is not asked for again", async () => {
    const { store, cleanup } = journalDir();
    const script: ScriptedReply[] = [
      {
        toolCalls: [
          { id: "d1", name: "delete", input: {} },
          { id: "s1", name: "search", input: {} },
        ],
      },
      { text: "deleted" },
    ];
    try {
      const del = countingTool("delete", "never", [], "ask");
      const first = new Agent(
        durableOptions(store(), positionalProvider(script), [del.tool, countingTool("search", "safe").tool]),
      );
      const paused = await first.run("clean");
      assert.deepEqual(
        paused.pending.map((p) => p.id),
        ["d1"],
      );
      // The process dies once d1's approval is committed, before d1 starts: a CHECKPOINT observer that never returns holds the run there.
      const approved = new Promise<void>((resolve) =>
        first.hooks.on(HookEvent.CHECKPOINT, (ctx) => {
          if (ctx.data.phase !== "approval") return;
          resolve();
          return new Promise<void>(() => {});
        }),
      );
      void first.resume({ d1: "approve" });
      await approved;
      const del2 = countingTool("delete", "never", [], "ask");
      const agent = new Agent(
        durableOptions(store(), positionalProvider(script), [del2.tool, countingTool("search", "safe").tool]),
      );
      const result = await agent.resume(paused.runId);
      assert.equal(result.status, "completed", "d1's approval was committed: it is not asked for again");
      assert.equal(del.runs() + del2.runs(), 1);
      await agent.close();
    } finally {
      cleanup();
    }
  });

  test("an interrupted call refused for another reason after the resume keeps that reason", async () => {
    const script: ScriptedReply[] = [{ toolCalls: [{ id: "c1", name: "pay", input: {} }] }, { text: "done" }];
    for (const [setup, outcome] of [
      [
        { tools: [countingTool("pay", "never").tool], permissions: new PermissionManager({ rules: { pay: "deny" } }) },
        "denied",
      ],
      [{ tools: [] }, "unknown_tool"],
    ] as const) {
      const { store, cleanup } = journalDir();
      try {
        const runId = await runUntil(
          new Agent(durableOptions(store(), positionalProvider(script), [countingTool("pay", "never", [1]).tool])),
          "go",
          "tool_started",
        );
        const agent = new Agent({ ...durableOptions(store(), positionalProvider(script), []), ...setup });
        const seen = recordEvents(agent);
        assert.equal((await agent.resume(runId)).status, "completed");
        assert.deepEqual(
          ofKind(seen, HookEvent.TOOL_CALL_END).map((e) => e.outcome),
          [outcome],
        );
        await agent.close();
      } finally {
        cleanup();
      }
    }
  });
});

describe("newCounters", () => {
  test("a run that has not begun has counted nothing", () => {
    assert.deepEqual(newCounters(4096), {
      iteration: 0,
      modelCalls: 0,
      toolCalls: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      cost: { usd: null, unpricedCalls: 0 },
      recoveries: {},
      replyBudget: 4096,
      textParts: [],
      lastText: "",
      elapsedMs: 0,
    });
  });
});
