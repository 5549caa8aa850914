// What each commit of a durable run is: which phase boundaries are synced under each durability,
// the status each CHECKPOINT announces, and how a snapshot builds on the one before it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { HookEvent } from "../hooks/events.js";
import type { ScriptedReply } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { countingTool, durableOptions, journalDir, positionalProvider } from "./durable-test-kit.js";
import type { Durability, DurableStore } from "./durable-store.js";
import { safeToRepeat } from "./run-journal.js";

/** A store that notes, for each line appended, its phase and whether the append was synced. */
function syncNoting(store: DurableStore): { store: DurableStore; appends: string[] } {
  const appends: string[] = [];
  const noting: DurableStore = {
    append: (runId, lines, sync) => {
      for (const line of lines.trim().split("\n"))
        appends.push(`${(JSON.parse(line) as { phase: string }).phase}${sync ? " synced" : ""}`);
      return store.append(runId, lines, sync);
    },
    read: (runId) => store.read(runId),
    close: () => store.close(),
  };
  return { store: noting, appends };
}

// Step 1 calls pay (not safe, needs approval) and search (safe); step 2 answers.
const SCRIPT: ScriptedReply[] = [
  {
    toolCalls: [
      { id: "c1", name: "pay", input: {} },
      { id: "c2", name: "search", input: {} },
    ],
  },
  { text: "paid" },
];

async function commitsOf(durability: Durability | undefined): Promise<{ appends: string[]; checkpoints: string[] }> {
  const { store, cleanup } = journalDir();
  try {
    const noted = syncNoting(store());
    const agent = new Agent({
      ...durableOptions(store(), positionalProvider(SCRIPT), [
        countingTool("pay", "never", [], "ask").tool,
        countingTool("search", "safe").tool,
      ]),
      durable: { store: noted.store, ...(durability ? { durability } : {}) },
    });
    const checkpoints: string[] = [];
    agent.hooks.on(HookEvent.CHECKPOINT, (ctx) => void checkpoints.push(`${ctx.data.phase} ${ctx.data.status}`));
    assert.equal((await agent.run("pay")).status, "awaiting_approval");
    assert.equal((await agent.resume({ c1: "approve" })).status, "completed");
    await agent.close();
    return { appends: noted.appends, checkpoints };
  } finally {
    cleanup();
  }
}

describe("the commits of a durable run", () => {
  test("group durability syncs only around a call that is not safe to repeat, approvals and the end", async () => {
    const { appends, checkpoints } = await commitsOf("group");
    assert.deepEqual(appends, [
      "run_start",
      "snapshot",
      "model_reply",
      "tool_started",
      "tool_outcome",
      "approval_wait synced",
      "approval synced",
      "tool_started synced",
      "tool_outcome synced",
      "snapshot",
      "model_reply",
      "run_end synced",
    ]);
    assert.deepEqual(checkpoints, [
      "snapshot running",
      "model_reply running",
      "tool_started running",
      "tool_outcome running",
      "approval_wait awaiting_approval",
      "approval running",
      "tool_started running",
      "tool_outcome running",
      "snapshot running",
      "model_reply running",
      "run_end completed",
    ]);
  });

  test("fsync durability, the default, syncs every commit", async () => {
    const { appends } = await commitsOf(undefined);
    assert.equal(appends.length, 12);
    assert.ok(
      appends.every((a) => a.endsWith(" synced")),
      appends.join(", "),
    );
  });

  test("a snapshot after the conversation was rewritten in the run holds all of it", async () => {
    const { dir, store, cleanup } = journalDir();
    try {
      let agent: Agent | undefined;
      // A rewrite that changes nothing but is one (compaction would shorten it): the next snapshot cannot be a delta.
      const rewrite = tool({
        name: "tidy",
        description: "tidies",
        replayPolicy: "safe",
        execute: () => {
          agent!.memory.replace(agent!.memory.entries);
          return "tidied";
        },
      });
      const script: ScriptedReply[] = [
        { toolCalls: [{ id: "c1", name: "search", input: {} }] },
        { toolCalls: [{ id: "c2", name: "tidy", input: {} }] },
        { toolCalls: [{ id: "c3", name: "search", input: {} }] },
        { text: "done" },
      ];
      agent = new Agent(
        durableOptions(store(), positionalProvider(script), [countingTool("search", "safe").tool, rewrite]),
      );
      const result = await agent.run("go");
      await agent.close();
      const lines = readFileSync(join(dir, `${result.runId}.ndjson`), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { phase: string; keep?: number; entries?: unknown[] });
      const snapshots = lines.filter((l) => l.phase === "snapshot").map((s) => [s.keep, s.entries!.length]);
      assert.deepEqual(
        snapshots,
        [
          [0, 1],
          [1, 2],
          [0, 5],
          [5, 2],
        ],
        "the third snapshot follows the rewrite: whole; the fourth a delta again",
      );
    } finally {
      cleanup();
    }
  });

  test("a tool without a replay policy, or no tool at all, is not safe to repeat", () => {
    assert.equal(safeToRepeat(undefined), false);
    assert.equal(safeToRepeat(countingTool("t", undefined).tool), false);
    assert.equal(safeToRepeat(countingTool("t", "safe").tool), true);
  });
});
