// OpenTelemetry's TraceIdRatioBased rule at its edges: the four 32-bit words of the id XORed,
// kept when below ratio x 0xffffffff (every id at 1, none at 0). The exporters' test checks the
// rule id for id against the SDK's sampler; these pin its edges where core is mutated alone.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { traceIdRatioSampled } from "./trace-id-ratio.js";

/** A trace id of four 32-bit words, in hex. */
const id = (...words: number[]): string => words.map((w) => w.toString(16).padStart(8, "0")).join("");

describe("traceIdRatioSampled", () => {
  test("at one half, the folded id just below the bound is kept and the bound itself is not", () => {
    const bound = Math.floor(0.5 * 0xffffffff);
    assert.equal(traceIdRatioSampled(id(bound - 1, 0, 0, 0), 0.5), true);
    assert.equal(traceIdRatioSampled(id(bound, 0, 0, 0), 0.5), false);
    assert.equal(traceIdRatioSampled(id(bound + 1, 0, 0, 0), 0.5), false);
  });

  test("every word counts, XORed: the same word twice cancels out", () => {
    const high = 0xf0000000;
    assert.equal(traceIdRatioSampled(id(high, 0, 0, 0), 0.5), false);
    for (const at of [1, 2, 3]) {
      const words = [high, 0, 0, 0];
      words[at] = high;
      assert.equal(traceIdRatioSampled(id(...words), 0.5), true, `word ${at} cancels the first`);
    }
    assert.equal(traceIdRatioSampled(id(0, 0, 0, high), 0.5), false, "the last word alone decides too");
    assert.equal(traceIdRatioSampled(id(1, 2, 4, 8), 16 / 0xffffffff + 1e-12), true, "1 ^ 2 ^ 4 ^ 8 = 15, below 16");
    assert.equal(traceIdRatioSampled(id(1, 2, 4, 8), 15 / 0xffffffff + 1e-12), false, "15 is not below 15");
  });

  test("ratio 1 or more keeps every valid id, the highest included; 0 or less keeps none", () => {
    const highest = id(0xffffffff, 0, 0, 0);
    for (const ratio of [1, 1.5]) assert.equal(traceIdRatioSampled(highest, ratio), true, String(ratio));
    const lowest = id(1, 1, 0, 0);
    for (const ratio of [0, -1]) assert.equal(traceIdRatioSampled(lowest, ratio), false, String(ratio));
    assert.equal(traceIdRatioSampled(lowest, 1e-9), true, "folded 0 is below any bound above 0");
  });

  test("what is not a trace id is never sampled", () => {
    for (const bad of ["0".repeat(32), "F".repeat(32), "abc", "g".repeat(32)])
      assert.equal(traceIdRatioSampled(bad, 1), false, bad);
  });
});
