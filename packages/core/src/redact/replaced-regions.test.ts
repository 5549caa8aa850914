import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Redactor } from "./redactor.js";
import { replaceAndPlace, replaceSpans } from "./detector.js";
import { clearOfReplaced } from "./replaced-regions.js";

const github = `ghp_${"a1B2".repeat(9)}`;
const key = (start: number, end: number) => ({ start, end, name: "token" });

describe("keyed values next to replaced secret shapes", () => {
  test("a replacement a keyed value would cut is left whole: no stray bracket", () => {
    const redactor = new Redactor();
    assert.equal(redactor.redactText(`token ${github} x`), "token [REDACTED:github] x");
    assert.equal(redactor.redactText(`token ${github}]`), "token [REDACTED:github]]");
    assert.equal(
      redactor.redactText(`token ${github} and secret ${github}`),
      "token [REDACTED:github] and secret [REDACTED:github]",
    );
  });

  test("what follows a replacement in the same value is hidden; a value ending inside one takes it whole", () => {
    const redactor = new Redactor();
    assert.equal(redactor.redactText(`token ${github}~more x`), "token [REDACTED:github][REDACTED] x");
    assert.equal(redactor.redactText(`token ab~${github} x`), "token [REDACTED] x");
  });

  test("replaceAndPlace replaces like replaceSpans and places each replacement in the result", () => {
    const spans = [
      { start: 2, end: 5, name: "a" },
      { start: 9, end: 10, name: "b" },
    ];
    const placed = replaceAndPlace("0123456789xy", spans, (span) => `<${span.name}${"-".repeat(span.start)}>`);
    assert.equal(
      placed.text,
      replaceSpans("0123456789xy", spans, (span) => `<${span.name}${"-".repeat(span.start)}>`),
    );
    assert.equal(placed.text, "01<a-->5678<b--------->xy");
    assert.deepEqual(placed.regions, [
      [2, 7],
      [11, 23],
    ]);
    assert.deepEqual(
      replaceAndPlace("abc", [], () => "x"),
      { text: "abc", regions: [] },
    );
  });

  test("clearOfReplaced drops, trims or widens a keyed span by where it meets a region", () => {
    const regions = [[10, 20] as const];
    assert.deepEqual(clearOfReplaced([key(10, 19)], regions), [], "inside");
    assert.deepEqual(clearOfReplaced([key(10, 20)], regions), [], "exactly");
    assert.deepEqual(clearOfReplaced([key(12, 25)], regions), [key(20, 25)], "begins inside");
    assert.deepEqual(clearOfReplaced([key(5, 15)], regions), [key(5, 20)], "ends inside");
    assert.deepEqual(clearOfReplaced([key(5, 25)], regions), [key(5, 25)], "covers it");
    assert.deepEqual(clearOfReplaced([key(0, 10), key(20, 30)], regions), [key(0, 10), key(20, 30)], "touching only");
    assert.deepEqual(
      clearOfReplaced(
        [key(12, 25)],
        [
          [10, 20],
          [22, 30],
        ],
      ),
      [key(20, 30)],
      "across two",
    );
  });
});
