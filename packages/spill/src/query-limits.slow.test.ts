import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ReadResultLimits } from "./options.js";
import { probe } from "./test-support/event-loop-probe.js";
import { SpillHarness, tempStore } from "./test-support/spill-harness.js";

// Every limit must cover all of a query's work, run off the agent's thread, and answer promptly:
// each call runs under a deadline of its own instead of leaning on the test runner's timeout.

/** Longest the agent's event loop may go without a tick; scheduling alone takes 150 ms on a busy 2-core machine. */
const MAX_STALL_MS = 400;
const rows = Array.from({ length: 1_000 }, (_, i) => ({ id: i, name: `row ${i}` }));
const tmp = tempStore();
const harnesses: SpillHarness[] = [];
after(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
  tmp.cleanup();
});

async function table(limits: ReadResultLimits): Promise<{ h: SpillHarness; resultId: string }> {
  const h = new SpillHarness(tmp.store, { thresholdBytes: 1_000, limits });
  harnesses.push(h);
  return { h, resultId: (await h.spill(JSON.stringify(rows))).resultId };
}

async function stillAnswers(h: SpillHarness, resultId: string): Promise<void> {
  const check = await h.read({ resultId, op: "query", sql: "SELECT count(*) AS n FROM result" });
  assert.equal(check.isError, false, check.content);
  assert.deepEqual(JSON.parse(check.content).rows, [{ n: rows.length }]);
}

describe("the time limit covers prepare, execution and shaping", () => {
  test("constant folding while preparing (list_filter over range(60000000)) is stopped at the limit; the agent's timer keeps ticking", async () => {
    const { h, resultId } = await table({ queryTimeoutMs: 1_000, queryMemoryLimit: "2GB" });
    const run = await probe(
      () => h.read({ resultId, op: "query", sql: "SELECT len(list_filter(range(60000000), x -> x % 7 = 0))" }),
      1_000 + 1_500,
    );
    assert.equal(run.value.isError, true, run.value.content);
    assert.match(run.value.content, /stopped after 1000 ms \(time limit\)/);
    assert.ok(run.elapsedMs < 1_000 + 1_500, `answered after ${run.elapsedMs} ms`);
    assert.ok(run.ticks >= run.elapsedMs / 10 / 3, `${run.ticks} ticks in ${run.elapsedMs} ms`);
    assert.ok(run.maxGapMs < MAX_STALL_MS, `the event loop stalled for ${run.maxGapMs} ms`);
    await stillAnswers(h, resultId);
  });

  test("an endless recursive CTE is interrupted inside the query process, which keeps its table", async () => {
    const { h, resultId } = await table({ queryTimeoutMs: 500 });
    const run = await probe(
      () =>
        h.read({
          resultId,
          op: "query",
          sql: "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t",
        }),
      500 + 1_500,
    );
    assert.match(run.value.content, /stopped after 500 ms \(time limit\)/);
    assert.ok(run.elapsedMs < 500 + 1_500, `answered after ${run.elapsedMs} ms`);
    const next = await probe(() => stillAnswers(h, resultId), 5_000);
    assert.ok(next.elapsedMs < 500, `the table was kept (next query in ${next.elapsedMs} ms)`);
  });
});

describe("memory stays bounded", () => {
  test("repeat('x', 100000000) FROM range(45) is refused as over the memory limit; the agent's memory does not grow", async () => {
    const { h, resultId } = await table({ queryTimeoutMs: 20_000, queryMemoryLimit: "64MB" });
    const run = await probe(
      () => h.read({ resultId, op: "query", sql: "SELECT repeat('x', 100000000) FROM range(45)" }),
      20_000,
    );
    assert.equal(run.value.isError, true, run.value.content);
    assert.match(run.value.content, /needed more memory than allowed \(64MB\) and was stopped/);
    assert.ok(run.rssGrowthMb < 100, `the agent grew by ${run.rssGrowthMb} MB`);
    assert.ok(run.maxGapMs < MAX_STALL_MS, `the event loop stalled for ${run.maxGapMs} ms`);
    assert.ok(run.elapsedMs < 20_000, `answered after ${run.elapsedMs} ms`);
    await stillAnswers(h, resultId);
  });

  test("a chunk of 2048 large values is not turned into JavaScript whole: the first value over the answer limit is refused", async () => {
    const { h, resultId } = await table({ queryTimeoutMs: 5_000 });
    const run = await probe(
      () => h.read({ resultId, op: "query", sql: "SELECT repeat('x', 100000) AS v FROM range(2048)" }),
      5_000,
    );
    assert.equal(run.value.isError, true, run.value.content);
    assert.match(run.value.content, /first row alone is over the 9600-character answer limit.*left\(col, 200\)/);
    assert.ok(run.rssGrowthMb < 100, `the agent grew by ${run.rssGrowthMb} MB`);
    assert.ok(run.elapsedMs < 5_000, `answered after ${run.elapsedMs} ms`);
  });

  test("a result of a hundred million rows stops at the caps while streaming", async () => {
    const { h, resultId } = await table({ queryTimeoutMs: 5_000 });
    const run = await probe(
      () => h.read({ resultId, op: "query", sql: "SELECT i, repeat('y', 100) AS pad FROM range(100000000) t(i)" }),
      5_000,
    );
    assert.equal(run.value.isError, false, run.value.content);
    const answer = JSON.parse(run.value.content);
    assert.ok(answer.rows.length > 0 && answer.rows.length < 200);
    assert.match(answer.note, /output cut at \d+ rows to stay under 9600 characters/);
    assert.ok(run.value.content.length <= 12_000);
    assert.ok(run.elapsedMs < 2_000, `answered after ${run.elapsedMs} ms`);
  });
});
