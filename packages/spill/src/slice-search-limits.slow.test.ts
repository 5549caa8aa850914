import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { probe } from "./test-support/event-loop-probe.js";
import { SpillHarness, tempStore } from "./test-support/spill-harness.js";

// slice and search run on the agent's thread (search's regex in a worker): each call must cost
// what it shows, not the size of the result, so a huge line or a deep offset never stalls the agent.
// A view's line and character indexes are built once (one pass over its bytes); the tests build
// them first with "schema" and then measure what every later call costs.

const LONG_LINE_CHARS = 30_000_000;
/**
 * Longest the agent's event loop may go without a tick during one call. Before these fixes the calls
 * below stalled it 300-600 ms each; on this shared 2-core machine scheduling alone can take 150 ms.
 */
const MAX_STALL_MS = 250;
const MANY_LINES = 3_000_000;
const tmp = tempStore();
let h: SpillHarness;
let longLine: string;
let manyLines: string;

before(async () => {
  h = new SpillHarness(tmp.store, { thresholdBytes: 1_000, limits: { searchTimeoutMs: 1_000 } });
  longLine = (await h.spill("é".repeat(LONG_LINE_CHARS))).resultId;
  manyLines = (await h.spill(`${Array.from({ length: MANY_LINES }, (_, i) => `l${i % 10}`).join("\n")}\nneedle\n`))
    .resultId;
  for (const resultId of [longLine, manyLines]) assert.equal((await h.read({ resultId, op: "schema" })).isError, false);
});
after(async () => {
  await h.close();
  tmp.cleanup();
});

describe("slice costs what it shows", () => {
  test("slice by lines of a 60 MB one-line text decodes only the characters it returns", async () => {
    const run = await probe(
      () => h.read({ resultId: longLine, op: "slice", unit: "lines", start: 1, count: 5 }),
      5_000,
    );
    assert.equal(run.value.isError, false, run.value.content);
    assert.match(
      run.value.content,
      /^\[lines 1-1 of 1 \(text\); line 1 has 30000000 characters and was cut: read the rest with unit "chars", start=12000\]/,
    );
    assert.ok(run.value.content.length < 12_200);
    assert.ok(run.maxGapMs < MAX_STALL_MS, `the event loop stalled for ${run.maxGapMs} ms`);
    assert.ok(run.rssGrowthMb < 40, `the agent grew by ${run.rssGrowthMb} MB`);
  });

  test("slice by characters deep in 60 MB of non-ASCII text never walks the text from its start", async () => {
    const starts = [29_000_000, 12_345_678, 27_182_818, 14_142_135, 29_999_950];
    const run = await probe(async () => {
      for (const start of starts) {
        const result = await h.read({ resultId: longLine, op: "slice", unit: "chars", start, count: 50 });
        const end = Math.min(start + 50, LONG_LINE_CHARS);
        assert.equal(
          result.content,
          `[chars ${start}-${end} of ${LONG_LINE_CHARS} (text); ${end < LONG_LINE_CHARS ? `next: unit "chars", start=${end}` : "end of result"}]\n${"é".repeat(end - start)}`,
        );
      }
    }, 5_000);
    assert.ok(run.elapsedMs < 500, `${starts.length} slices took ${run.elapsedMs} ms`);
    assert.ok(run.maxGapMs < MAX_STALL_MS, `the event loop stalled for ${run.maxGapMs} ms`);
    assert.ok(run.rssGrowthMb < 40, `the agent grew by ${run.rssGrowthMb} MB`);
  });

  test("a huge count is capped at the answer limit", async () => {
    for (const unit of ["lines", "chars"]) {
      const result = await h.read({ resultId: manyLines, op: "slice", unit, start: 1, count: 1_000_000_000 });
      assert.equal(result.isError, false, result.content);
      assert.ok(result.content.length < 12_200, `${unit}: ${result.content.length} characters`);
    }
  });
});

describe("search costs its matches, under the time limit", () => {
  test("a catastrophic regex over a 60 MB line stops at the limit and the agent's thread never stalls", async () => {
    const run = await probe(
      () => h.read({ resultId: longLine, op: "search", pattern: "(é+)+x", regex: true }),
      1_000 + 1_500,
    );
    assert.equal(run.value.isError, true, run.value.content);
    assert.match(run.value.content, /did not finish within 1000 ms/);
    assert.ok(run.elapsedMs < 1_000 + 1_500, `answered after ${run.elapsedMs} ms`);
    assert.ok(run.maxGapMs < MAX_STALL_MS, `the event loop stalled for ${run.maxGapMs} ms`);
  });

  test("a match three million lines down gets its line number from the line index, not by counting from the top", async () => {
    const first = await h.read({ resultId: manyLines, op: "search", pattern: "needle" });
    assert.match(first.content, new RegExp(`^\\[1 match .*\\n${MANY_LINES}-l9\\n${MANY_LINES + 1}:needle$`));
    const run = await probe(async () => {
      for (let i = 0; i < 10; i++)
        assert.equal((await h.read({ resultId: manyLines, op: "search", pattern: "needle" })).content, first.content);
    }, 5_000);
    assert.ok(run.elapsedMs < 600, `10 searches took ${run.elapsedMs} ms`);
    assert.ok(run.maxGapMs < MAX_STALL_MS, `the event loop stalled for ${run.maxGapMs} ms`);
  });
});
