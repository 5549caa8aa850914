// Journals a reader must refuse before acting on them: another run's journal under this run's
// name, a FIFO where the journal should be, a line longer than the store's reader takes.
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { makeFifo } from "../../../../test/support/system.js";
import { Agent } from "../engine/agent.js";
import { countingTool, durableOptions, journalDir, positionalProvider, runUntil } from "./durable-test-kit.js";
import { FileDurableStore } from "./file-durable-store.js";
import { parseJournal, readResumePoint } from "./read-journal.js";
import { ResumeError } from "./resume-error.js";

const STEPS = [{ toolCalls: [{ id: "c1", name: "pay", input: { to: "alice" } }] }, { text: "paid" }];

const refused = (problem: string, message: RegExp) => (error: unknown) =>
  error instanceof ResumeError && error.problem === problem && message.test(error.message);

/** A run that hangs in its `pay` call (its process "dies" there): the journal ends with that call started. */
async function hungRun(store: FileDurableStore): Promise<string> {
  return runUntil(
    new Agent(durableOptions(store, positionalProvider(STEPS), [countingTool("pay", "safe", [1]).tool])),
    "pay alice",
    "tool_started",
  );
}

describe("a journal is refused before anything is resumed from it", () => {
  test("another run's journal copied under this run's name: journal_foreign, and its call is not run again", async () => {
    const { dir, store, cleanup } = journalDir();
    try {
      const other = await hungRun(store());
      const copy = "run_copied_elsewhere";
      copyFileSync(join(dir, `${other}.ndjson`), join(dir, `${copy}.ndjson`));
      const pay = countingTool("pay", "safe");
      const agent = new Agent(durableOptions(store(), positionalProvider(STEPS), [pay.tool]));
      await assert.rejects(
        agent.resume(copy),
        refused("journal_foreign", new RegExp(`the journal of ${copy} is the journal of "${other}"`)),
      );
      assert.equal(pay.runs(), 0, "the other run's call did not run under a new idempotency key");
      const resumed = await agent.resume(other);
      assert.equal(resumed.status, "completed", "the run itself resumes by its own id");
      assert.equal(pay.runs(), 1);
      await agent.close();
    } finally {
      cleanup();
    }
  });

  test("a FIFO in place of the journal is refused at once (reading it would wait forever for a writer)", async () => {
    const { dir, store, cleanup } = journalDir();
    try {
      makeFifo(join(dir, "run_piped.ndjson"));
      const agent = new Agent(durableOptions(store(), positionalProvider(STEPS), [countingTool("pay", "safe").tool]));
      await assert.rejects(
        agent.resume("run_piped"),
        refused("journal_not_a_file", /run_piped\.ndjson is a FIFO \(named pipe\), not a regular file/),
      );
      await assert.rejects(
        store().read("run_piped"),
        refused("journal_not_a_file", /FIFO/),
        "read (a whole journal) refuses it too",
      );
      await agent.close();
    } finally {
      cleanup();
    }
  });

  test("a line longer than the store's maxLineBytes is refused, naming the limit and how to raise it; exactly the limit is read", async () => {
    const { dir, store, cleanup } = journalDir();
    try {
      const runId = await hungRun(store());
      const longest = Math.max(
        ...readFileSync(join(dir, `${runId}.ndjson`))
          .toString("utf8")
          .split("\n")
          .map((line) => Buffer.byteLength(line)),
      );
      const point = await readResumePoint(new FileDurableStore(dir, { maxLineBytes: longest }), runId);
      assert.deepEqual(
        point.after.map((e) => e.phase),
        ["model_reply", "tool_started"],
      );
      await assert.rejects(
        readResumePoint(new FileDurableStore(dir, { maxLineBytes: longest - 1 }), runId),
        refused(
          "journal_too_large",
          new RegExp(
            `^line \\d+ of the journal of ${runId} is longer than the ${(longest - 1).toLocaleString("en-US")} bytes a reader takes: .*maxLineBytes`,
          ),
        ),
      );
      assert.throws(
        () => new FileDurableStore(dir, { maxLineBytes: 0 }),
        /maxLineBytes must be a positive whole number/,
      );
    } finally {
      cleanup();
    }
  });

  test("a torn last line over the limit is refused too; a journal read whole is cut by the same rule", async () => {
    const { dir, cleanup } = journalDir();
    try {
      writeFileSync(join(dir, "run_torn.ndjson"), "x".repeat(2000));
      await assert.rejects(
        readResumePoint(new FileDurableStore(dir, { maxLineBytes: 1999 }), "run_torn"),
        refused("journal_too_large", /line 1 /),
      );
      await assert.rejects(
        readResumePoint(new FileDurableStore(dir, { maxLineBytes: 2000 }), "run_torn"),
        refused("not_journaled", /ends before its first checkpoint/),
        "within the limit, it is a torn line, cut",
      );
      assert.deepEqual(
        parseJournal("run_torn", Buffer.from('{"v":1,"phase":"run_end","status":"completed","at":1}\n{"v":1')),
        { lines: [{ v: 1, phase: "run_end", status: "completed", at: 1 }], tornBytes: 6 },
      );
    } finally {
      cleanup();
    }
  });
});
