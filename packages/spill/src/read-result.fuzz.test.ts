import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { fuzzParameters } from "../../../test/support/fuzz.js";
import { probe } from "./test-support/event-loop-probe.js";
import { hostDirs, leakedDirs } from "./test-support/host-leaks.js";
import { hostileId, hostileNumber, hostilePaths, hostilePattern, hostileSql } from "./test-support/hostile-inputs.js";
import { SpillHarness, snapshot, tempStore } from "./test-support/spill-harness.js";

// Property: whatever a hostile model sends, read_result answers within its limit plus a grace,
// with a result inside the caps or a clear error, without stalling the agent's event loop, naming
// a host directory, or touching a file outside its sandbox. Findings become named tests in
// hostile-input.slow.test.ts; the counts back the figure quoted in docs/reliability.md.

const LIMIT_MS = 300;
/** The query process's own interrupt, or its kill 400 ms later, plus the machine's slack. */
const GRACE_MS = 1_500;
/** A call right after a query cost its table the process waits for the table to load again. */
const RELOAD_MS = 3_000;
const MAX_OUTPUT = 4_000;
/** Headers, notes and error texts around a capped answer. */
const OUTPUT_SLACK = 600;
/** Longest the agent's event loop may go without a tick; scheduling alone takes 300 ms on a busy 2-core machine. */
const MAX_STALL_MS = 500;
/** Property runs under `npm test` (FUZZ_SCALE times as many under `npm run fuzz`). */
const RUNS = { sql: 80, slice: 80, search: 40 };
/** A failure shows the assertion that broke, not only the counterexample. */
const REPORT = { includeErrorInReport: true };

const tmp = tempStore();
const canary = mkdtempSync(join(tmpdir(), "harnessx-fuzz-canary-"));
const stats = { tried: 0, refused: 0, contained: 0 };
let h: SpillHarness;
let tableId: string;
let textId: string;
let reloading = false;

before(async () => {
  h = new SpillHarness(tmp.store, {
    thresholdBytes: 1_000,
    limits: {
      queryTimeoutMs: LIMIT_MS,
      searchTimeoutMs: LIMIT_MS,
      maxOutputChars: MAX_OUTPUT,
      queryMemoryLimit: "128MB",
    },
  });
  tableId = (
    await h.spill(
      JSON.stringify(
        Array.from({ length: 300 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ["a", "b"].slice(i % 2) })),
      ),
    )
  ).resultId;
  textId = (await h.spill(Array.from({ length: 400 }, (_, i) => `${"a".repeat(40)}! line ${i} é`).join("\n"))).resultId;
});
after(async () => {
  await h.close();
  tmp.cleanup();
  rmSync(canary, { recursive: true, force: true });
});

/** One call through the real agent, checked against every part of the property. */
async function contained(input: Record<string, unknown>): Promise<void> {
  const bound = (input.op === "query" || input.op === "search" ? LIMIT_MS : 0) + GRACE_MS + (reloading ? RELOAD_MS : 0);
  const storeBefore = snapshot(tmp.root);
  const run = await probe(() => h.read(input), bound);
  const { content, isError } = run.value;
  stats.tried++;
  if (isError) stats.refused++;
  else stats.contained++;
  reloading = isError && content.includes("loaded again on the next call");
  assert.equal(typeof content, "string");
  assert.ok(content.length <= MAX_OUTPUT + OUTPUT_SLACK, `${content.length} characters answered`);
  if (isError) {
    assert.match(content, /^Error: \S.{20,}/s, "a refusal says what went wrong");
    assert.doesNotMatch(content, /\[object Object\]|\bundefined\b|\n\s+at /, "a refusal is a message, not a dump");
  }
  assert.ok(run.maxGapMs < MAX_STALL_MS, `the event loop stalled for ${run.maxGapMs} ms`);
  assert.deepEqual(leakedDirs(content, JSON.stringify(input), hostDirs([tmp.root])), [], content);
  assert.deepEqual(snapshot(tmp.root), storeBefore, "the store is unchanged");
  assert.deepEqual(readdirSync(canary), [], "nothing was written outside the sandbox");
}

describe("read_result contains whatever a hostile model sends", () => {
  test("SQL from a grammar of string, list, regex, range, file, extension and settings functions", async () => {
    const input = fc.record({
      resultId: fc.constant(tableId),
      op: fc.constant("query"),
      sql: hostileSql(hostilePaths(canary, tmp.root)),
    });
    await fc.assert(fc.asyncProperty(input, contained), fuzzParameters(RUNS.sql, REPORT));
  });

  test("slices with absurd ids, units, offsets and counts", async () => {
    const input = fc.record(
      {
        resultId: hostileId([tableId, textId]),
        op: fc.constant("slice"),
        unit: fc.constantFrom("lines", "chars", "bytes", undefined),
        start: hostileNumber,
        count: hostileNumber,
      },
      { requiredKeys: ["resultId", "op"] },
    );
    await fc.assert(fc.asyncProperty(input, contained), fuzzParameters(RUNS.slice, REPORT));
  });

  test("searches with catastrophic regular expressions, and schema and unknown ops", async () => {
    const search = fc
      .tuple(hostileId([textId, tableId]), hostilePattern)
      .map(([resultId, p]) => ({ resultId, op: "search", ...p }));
    const other = fc.record({
      resultId: hostileId([tableId, textId]),
      op: fc.constantFrom("schema", "delete", "query"),
    });
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 3, arbitrary: search }, { weight: 1, arbitrary: other }), contained),
      fuzzParameters(RUNS.search, REPORT),
    );
  });

  test("every hostile input tried was refused or answered within the caps", (t) => {
    t.diagnostic(
      `${stats.tried} hostile inputs tried: ${stats.refused} refused, ${stats.contained} answered within the caps`,
    );
    const scale = Math.max(1, Number(process.env.FUZZ_SCALE) || 1);
    assert.ok(stats.tried >= (RUNS.sql + RUNS.slice + RUNS.search) * scale, `${stats.tried} inputs tried`);
    assert.equal(stats.refused + stats.contained, stats.tried);
    assert.ok(stats.refused > stats.tried / 2, `${stats.refused} refused`);
  });
});
