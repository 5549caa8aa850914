// The recording process compacts its store in the background: after `afterRuns` ended runs, at
// most once per `minIntervalMs`, never with `compact: false`, and `close()` waits for it.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { FlightRecorderExtension, type FlightRecorderOptions } from "../index.js";
import { scriptedAgent } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";
import { committedParts, listPartFiles } from "./part-files.js";
import { openStoreTables } from "./store-tables.js";

async function recordRuns(dir: string, runs: number, compact: FlightRecorderOptions["compact"]): Promise<void> {
  const steps = Array.from({ length: runs }, () => ({ text: "done", usage: { inputTokens: 3, outputTokens: 1 } }));
  const agent = scriptedAgent(steps, [new FlightRecorderExtension({ dir, compact })]);
  for (let i = 0; i < runs; i++) await agent.run(`run ${i}`);
  await agent.close();
}

async function compactions(dir: string): Promise<number> {
  return new Set(committedParts((await listPartFiles(dir)).files).map((f) => f.stamp)).size;
}

async function counts(dir: string): Promise<{ runs: number; distinct: number; compacted: number }> {
  const tables = await openStoreTables(dir, { readOnly: true });
  try {
    const [row] = await tables.query(`SELECT count(*)::INTEGER AS runs, count(DISTINCT run_id)::INTEGER AS distinct,
      (SELECT count(*)::INTEGER FROM hx_part_runs) AS compacted FROM runs`);
    return row as { runs: number; distinct: number; compacted: number };
  } finally {
    tables.close();
  }
}

describe("background compaction in the recording process", () => {
  test("after afterRuns ended runs, once per minIntervalMs; close() waits for it", async () => {
    const { dir, cleanup } = tempDir();
    try {
      await recordRuns(dir, 3, { afterRuns: 3, minIntervalMs: 0, maxRuns: 2 });
      assert.equal(await compactions(dir), 1);
      // At most maxRuns, newest first: the oldest run waits for the next compaction.
      assert.deepEqual(await counts(dir), { runs: 3, distinct: 3, compacted: 2 });
      // Two runs more are fewer than afterRuns: nothing; a third starts one, the interval allowing.
      await recordRuns(dir, 2, { afterRuns: 3, minIntervalMs: 0 });
      assert.equal(await compactions(dir), 1);
      await recordRuns(dir, 3, { afterRuns: 3, minIntervalMs: 3_600_000 });
      assert.equal(await compactions(dir), 1, "the last compaction is less than an hour old");
      await recordRuns(dir, 3, { afterRuns: 3, minIntervalMs: 0 });
      assert.equal(await compactions(dir), 2);
      // It started as the batch's first run ended: the two after it may have ended before it chose.
      const after = await counts(dir);
      assert.deepEqual({ ...after, compacted: after.compacted >= 9 }, { runs: 11, distinct: 11, compacted: true });
    } finally {
      cleanup();
    }
  });

  test("compact: false never compacts; by default a few runs do not either", async () => {
    for (const compact of [false, undefined] as const) {
      const { dir, cleanup } = tempDir();
      try {
        await recordRuns(dir, 4, compact === false ? false : undefined);
        assert.equal(existsSync(join(dir, "parts")), false, String(compact));
      } finally {
        cleanup();
      }
    }
  });

  test("bad settings are refused when the recorder is made", () => {
    assert.throws(() => new FlightRecorderExtension({ compact: { afterRuns: 0 } }), /compact.afterRuns/);
    assert.throws(() => new FlightRecorderExtension({ compact: { minIntervalMs: -1 } }), /compact.minIntervalMs/);
    assert.throws(() => new FlightRecorderExtension({ compact: { maxRuns: 0 } }), /compact.maxRuns/);
  });
});
