import assert from "node:assert/strict";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ConfigError } from "../errors.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { countingTool, durableOptions, journalDir, positionalProvider, runUntil } from "./durable-test-kit.js";
import { FileDurableStore } from "./file-durable-store.js";
import { readResumePoint } from "./read-journal.js";
import { ResumeError } from "./resume-error.js";

// The fourth answers a second run of the same agent (its conversation then holds three replies).
const STEPS = [
  { toolCalls: [{ id: "c1", name: "search", input: {} }] },
  { toolCalls: [{ id: "c2", name: "search", input: {} }] },
  { text: "done" },
  { text: "again" },
];

async function rejectsWith(promise: Promise<unknown>, problem: string, message: RegExp): Promise<void> {
  await assert.rejects(
    promise,
    (error: unknown) => error instanceof ResumeError && error.problem === problem && message.test(error.message),
  );
}

describe("what cannot be resumed is refused with a ResumeError saying why", () => {
  test("no durable store, a run id that is a path, an unknown run, an ended run", async () => {
    const { store, cleanup } = journalDir();
    try {
      await rejectsWith(
        new Agent({ provider: new ScriptedProvider([]) }).resume("run_x"),
        "durable_off",
        /no durable store/,
      );
      const agent = new Agent(
        durableOptions(store(), positionalProvider(STEPS), [countingTool("search", "safe").tool]),
      );
      await rejectsWith(agent.resume("../../etc/passwd"), "bad_run_id", /is not a run id/);
      await rejectsWith(agent.resume("run_unknown"), "not_journaled", /no journal of run_unknown/);
      const done = await agent.run("go");
      await rejectsWith(agent.resume(done.runId), "already_ended", /already ended \(completed\)/);
      assert.equal((await agent.run("again")).status, "completed", "a refused resume leaves the agent usable");
      await agent.close();
    } finally {
      cleanup();
    }
  });

  test("a torn last line is cut; a damaged line before it is journal_corrupt", async () => {
    const { dir, store, cleanup } = journalDir();
    try {
      const runId = await runUntil(
        new Agent(durableOptions(store(), positionalProvider(STEPS), [countingTool("search", "safe", [2]).tool])),
        "go",
        "tool_started",
        2,
      );
      const path = join(dir, `${runId}.ndjson`);
      appendFileSync(path, '{"v":1,"phase":"tool_outc');
      const point = await readResumePoint(new FileDurableStore(dir), runId);
      assert.ok(point.tornBytes > 0);
      assert.deepEqual(
        point.after.map((e) => e.phase),
        ["model_reply", "tool_started"],
      );
      const agent = new Agent(
        durableOptions(store(), positionalProvider(STEPS), [countingTool("search", "safe").tool]),
      );
      assert.equal((await agent.resume(runId)).status, "completed");
      await agent.close();
      const lines = readFileSync(path, "utf8").split("\n");
      lines[1] = "not json";
      writeFileSync(path, lines.join("\n"));
      await rejectsWith(
        new Agent(durableOptions(store(), positionalProvider(STEPS), [])).resume(runId),
        "journal_corrupt",
        /line 2 .* is not JSON/,
      );
    } finally {
      cleanup();
    }
  });

  test("a bad durable option fails at construction", () => {
    assert.throws(
      () => new Agent({ provider: new ScriptedProvider([]), durable: { store: {} as never } }),
      ConfigError,
    );
    const { store, cleanup } = journalDir();
    try {
      assert.throws(
        () =>
          new Agent({
            provider: new ScriptedProvider([]),
            durable: { store: store(), durability: "sometimes" as never },
          }),
        /"fsync" or "group"/,
      );
    } finally {
      cleanup();
    }
  });
});

describe("the journal's shape", () => {
  test("snapshots after the first hold only what the conversation gained; a rewrite writes it whole", async () => {
    const { dir, store, cleanup } = journalDir();
    try {
      const agent = new Agent(
        durableOptions(store(), positionalProvider(STEPS), [countingTool("search", "safe").tool]),
      );
      const result = await agent.run("go");
      const lines = readFileSync(join(dir, `${result.runId}.ndjson`), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { phase: string; keep?: number; entries?: unknown[] });
      assert.deepEqual(
        lines.map((l) => l.phase),
        [
          "run_start",
          "snapshot",
          "model_reply",
          "tool_started",
          "tool_outcome",
          "snapshot",
          "model_reply",
          "tool_started",
          "tool_outcome",
          "snapshot",
          "model_reply",
          "run_end",
        ],
      );
      const snapshots = lines.filter((l) => l.phase === "snapshot");
      assert.deepEqual(
        snapshots.map((s) => [s.keep, s.entries!.length]),
        [
          [0, 1],
          [1, 2],
          [3, 2],
        ],
      );
      agent.memory.replace(agent.memory.entries.slice(0, 1));
      const second = await agent.run("again");
      const again = readFileSync(join(dir, `${second.runId}.ndjson`), "utf8")
        .split("\n")
        .map((l) => (l ? (JSON.parse(l) as { phase: string; keep?: number }) : undefined));
      assert.equal(again.find((l) => l?.phase === "snapshot")!.keep, 0, "a new run's first snapshot is whole");
      await agent.close();
    } finally {
      cleanup();
    }
  });

  test("group durability journals the same phases and resumes the same way", async () => {
    const { dir, store, cleanup } = journalDir();
    try {
      const agent = new Agent({
        ...durableOptions(store(), positionalProvider(STEPS), [countingTool("search", "safe").tool]),
        durable: { store: store(), durability: "group" },
      });
      const result = await agent.run("go");
      await agent.close();
      const phases = readFileSync(join(dir, `${result.runId}.ndjson`), "utf8")
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { phase: string }).phase);
      assert.equal(phases.length, 12);
      assert.equal(phases.at(-1), "run_end");
    } finally {
      cleanup();
    }
  });
});

describe("checkpoints on the run stream", () => {
  test("a durable run's stream carries each commit's phase before its result; a plain run's carries none", async () => {
    const { store, cleanup } = journalDir();
    try {
      const phasesOf = async (agent: Agent) => {
        const phases: string[] = [];
        for await (const event of agent.runStream("go")) if (event.type === "checkpoint") phases.push(event.phase);
        await agent.close();
        return phases;
      };
      assert.deepEqual(
        await phasesOf(
          new Agent(durableOptions(store(), positionalProvider(STEPS), [countingTool("search", "safe").tool])),
        ),
        [
          "snapshot",
          "model_reply",
          "tool_started",
          "tool_outcome",
          "snapshot",
          "model_reply",
          "tool_started",
          "tool_outcome",
          "snapshot",
          "model_reply",
          "run_end",
        ],
      );
      assert.deepEqual(
        await phasesOf(
          new Agent({ provider: positionalProvider(STEPS), tools: [countingTool("search", "safe").tool] }),
        ),
        [],
      );
    } finally {
      cleanup();
    }
  });
});
