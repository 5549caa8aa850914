// What a resumed run takes from the entries committed after its last snapshot: each reply and
// outcome once, the calls that started without an outcome, and the decisions already given.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JournalEntry } from "./journal-entry.js";
import { JournalReplay } from "./journal-replay.js";

const reply = (iteration: number): JournalEntry => ({
  phase: "model_reply",
  iteration,
  response: { content: [], stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 } } as never,
  cost: { usd: 0 } as never,
});
const started = (callId: string): JournalEntry => ({
  phase: "tool_started",
  iteration: 2,
  callId,
  name: "pay",
  input: {},
  idempotencyKey: `run_a:${callId}`,
});
const outcome = (callId: string): JournalEntry => ({
  phase: "tool_outcome",
  iteration: 2,
  callId,
  outcome: "executed",
  result: { toolCallId: callId, name: "pay", content: "paid", isError: false },
});
const approval = (iteration: number, decisions: Record<string, "approve" | "deny">): JournalEntry => ({
  phase: "approval",
  iteration,
  decisions,
});

describe("JournalReplay", () => {
  test("the step's reply is taken once, and only by its own step", () => {
    const replay = new JournalReplay([reply(1), reply(2)]);
    assert.equal(replay.takeReply(1), undefined, "only the last committed reply counts");
    assert.equal(replay.takeReply(2)?.iteration, 2);
    assert.equal(replay.takeReply(2), undefined, "taken once");
    assert.equal(new JournalReplay([]).takeReply(1), undefined);
  });

  test("an outcome is taken once, by its own step; a started call without one was interrupted in its step only", () => {
    const replay = new JournalReplay([started("c1"), outcome("c1"), started("c2")]);
    assert.equal(replay.interrupted(2, "c1"), false);
    assert.equal(replay.interrupted(2, "c2"), true);
    assert.equal(replay.interrupted(3, "c2"), false, "step 3's call c2 is another call");
    assert.equal(replay.interrupted(2, "c3"), false, "a call that never started was not interrupted");
    assert.equal(replay.takeOutcome(3, "c1"), undefined, "step 3's call c1 is another call");
    assert.equal(replay.takeOutcome(2, "c1")?.result.content, "paid");
    assert.equal(replay.takeOutcome(2, "c1"), undefined);
    assert.equal(replay.interrupted(2, "c1"), false, "a taken outcome still counts as committed");
    assert.equal(replay.takeOutcome(2, "c2"), undefined);
  });

  test("decisions of a step are merged over its approval entries; an interrupted call's approval is left out", () => {
    const replay = new JournalReplay([
      approval(2, { c1: "approve", c2: "deny" }),
      approval(2, { c2: "approve", c3: "approve" }),
      approval(3, { c9: "deny", c3: "deny" }),
      started("c3"),
    ]);
    assert.deepEqual(replay.decisions(2), { c1: "approve", c2: "approve" });
    assert.deepEqual(replay.decisions(3), { c9: "deny", c3: "deny" }, "c3 started in step 2, not 3");
    assert.equal(replay.decisions(1), undefined, "no decision was committed for step 1");
    assert.equal(
      new JournalReplay([{ phase: "approval_wait", iteration: 2, pending: ["c1"] }]).decisions(2),
      undefined,
      "a wait is not a decision",
    );
  });

  test("report says what was reused, the same before and after outcomes are taken", () => {
    const replay = new JournalReplay([
      reply(2),
      started("c1"),
      outcome("c1"),
      started("c2"),
      outcome("c2"),
      started("c3"),
      approval(2, { c3: "approve" }),
    ]);
    assert.equal(
      replay.report("snapshot"),
      "resumed from its snapshot; the model reply of step 2 taken from the journal; 2 tool result(s) taken from the journal; 1 call(s) interrupted",
    );
    replay.takeOutcome(2, "c1");
    replay.takeOutcome(2, "c2");
    assert.equal(
      replay.report("snapshot"),
      "resumed from its snapshot; the model reply of step 2 taken from the journal; 2 tool result(s) taken from the journal; 1 call(s) interrupted",
      "a taken outcome still counts, once",
    );
    assert.equal(
      new JournalReplay([
        approval(1, { c1: "approve" }),
        { phase: "approval_wait", iteration: 1, pending: ["c1"] },
      ]).report("step 1"),
      "resumed from its step 1",
      "nothing reused, nothing interrupted",
    );
  });
});
