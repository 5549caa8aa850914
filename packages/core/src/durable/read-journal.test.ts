// Reading a journal back: which lines are entries, how snapshot deltas fold into the conversation
// a run resumes with, and a store that can only hand the journal over whole.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DurableStore } from "./durable-store.js";
import { parseJournal, readResumePoint } from "./read-journal.js";
import { ResumeError } from "./resume-error.js";

const refused = (problem: string, message: RegExp) => (error: unknown) =>
  error instanceof ResumeError && error.problem === problem && message.test(error.message);

/** A store of journals held in memory, without `readLines`: resume reads it whole. */
function memoryStore(journals: Record<string, string>): DurableStore {
  return {
    append: async () => {},
    read: async (runId) => (runId in journals ? Buffer.from(journals[runId]) : undefined),
    close: async () => {},
  };
}

const line = (entry: object) => `${JSON.stringify({ v: 1, at: 1, ...entry })}\n`;
const start = (runId: string) =>
  line({ phase: "run_start", runId, sessionId: "s", input: "go", traceId: "t", spanId: "p" });
const snapshot = (keep: number, entries: string[]) =>
  line({ phase: "snapshot", keep, entries, todos: [], extensions: {}, counters: { iteration: 1 } });

describe("parseJournal", () => {
  test("a line that is JSON but not a version 1 entry is journal_corrupt, naming its line", () => {
    const good = line({ phase: "run_end", status: "completed" });
    for (const bad of [
      "null",
      "5",
      '"text"',
      "true",
      "[]",
      '{"phase":"run_end","status":"completed"}',
      '{"v":2,"phase":"run_end","status":"completed"}',
      '{"v":1,"phase":"reboot"}',
    ]) {
      assert.throws(
        () => parseJournal("run_x", Buffer.from(`${good}${bad}\n`)),
        refused("journal_corrupt", /^line 2 of the journal of run_x is not a journal entry of version 1$/),
        bad,
      );
    }
  });

  test("empty lines are passed over, and still counted in the line numbers", () => {
    const end = line({ phase: "run_end", status: "completed" });
    assert.deepEqual(
      parseJournal("run_x", Buffer.from(`\n${end}\n`)).lines.map((l) => l.phase),
      ["run_end"],
    );
    assert.throws(() => parseJournal("run_x", Buffer.from(`\n${end}\nnull\n`)), refused("journal_corrupt", /^line 4 /));
  });
});

describe("readResumePoint", () => {
  test("each snapshot keeps `keep` entries of the conversation before it and adds its own", async () => {
    const journal =
      start("run_f") +
      line({ phase: "model_reply", iteration: 0 }) +
      snapshot(1, ["a"]) +
      snapshot(1, ["b", "c"]) +
      snapshot(2, ["d"]) +
      line({ phase: "model_reply", iteration: 3 });
    const point = await readResumePoint(memoryStore({ run_f: journal }), "run_f");
    assert.deepEqual(
      point.snapshot.entries,
      ["a", "b", "d"],
      "the first snapshot has nothing to keep; the third keeps a and b",
    );
    assert.equal(point.snapshot.keep, 0, "the point's snapshot is whole");
    assert.deepEqual(
      point.after.map((e) => e.phase),
      ["model_reply"],
      "only what came after the last snapshot",
    );
    const rewritten = await readResumePoint(
      memoryStore({ run_f: start("run_f") + snapshot(0, ["a", "b"]) + snapshot(0, ["x"]) }),
      "run_f",
    );
    assert.deepEqual(rewritten.snapshot.entries, ["x"], "keep 0: a rewritten conversation replaces the one before");
  });

  test("a store without readLines is read whole, by the same rules", async () => {
    const store = memoryStore({
      run_w: `${start("run_w")}${snapshot(0, ["a"])}{"v":1,"pha`,
      run_bad: `${start("run_bad")}null\n`,
    });
    const point = await readResumePoint(store, "run_w");
    assert.deepEqual([point.start.runId, point.snapshot.entries, point.tornBytes], ["run_w", ["a"], 11]);
    await assert.rejects(readResumePoint(store, "run_none"), refused("not_journaled", /no journal of run_none/));
    await assert.rejects(readResumePoint(store, "run_bad"), refused("journal_corrupt", /^line 2 /));
  });

  test("a journal without both a start and a snapshot has no point to resume from", async () => {
    const store = memoryStore({ run_s: start("run_s"), run_n: snapshot(0, ["a"]) });
    await assert.rejects(readResumePoint(store, "run_s"), refused("not_journaled", /ends before its first checkpoint/));
    await assert.rejects(readResumePoint(store, "run_n"), refused("not_journaled", /ends before its first checkpoint/));
  });
});
