// How findings become replacements: a finding is widened to the end of its token, findings that
// overlap are merged, ones that only touch are not, and an empty match is no finding.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Redactor } from "./redactor.js";
import type { RedactionPattern } from "./rules.js";

const only = (...patterns: RedactionPattern[]) => new Redactor({ keys: [], patterns, secretShapes: false });

describe("findings", () => {
  test("a finding is widened over letters, digits and _ - + / =, up to any other character", () => {
    const policy = only({ name: "t", pattern: /tok_\d/g });
    assert.equal(
      policy.redactText("tok_1aZz9_-+/= rest|tok_2[x tok_3`y tok_4{z tok_5é"),
      "[REDACTED:t] rest|[REDACTED:t][x [REDACTED:t]`y [REDACTED:t]{z [REDACTED:t]é",
    );
    assert.equal(policy.redactText("a tok_9"), "a [REDACTED:t]", "up to the end of the text");
  });

  test("a pattern that matches the empty string finds nothing there", () => {
    assert.equal(only({ name: "digits", pattern: /\d*/g }).redactText("abc def 12"), "abc def [REDACTED:digits]");
  });

  test("findings that only touch stay two; overlapping ones are one, named by the one that starts first, or the longer", () => {
    const key = { name: "key", pattern: /k3y\d+/g };
    const bang = { name: "bang", pattern: /!!\d+/g };
    assert.equal(only(key, bang).redactText("k3y1!!2 end"), "[REDACTED:key][REDACTED:bang] end");
    const phrase = { name: "phrase", pattern: /k3y\d+ more/g };
    assert.equal(only(key, phrase).redactText("k3y42 more text"), "[REDACTED:phrase] text");
    assert.equal(only(phrase, key).redactText("k3y42 more text"), "[REDACTED:phrase] text");
    const tail = { name: "tail", pattern: /\d+ more/g };
    assert.equal(only(tail, key).redactText("k3y42 more text"), "[REDACTED:key] text");
  });

  test("a replacement is given what it replaces", () => {
    const echo = new Redactor(undefined, {
      shape: (name, found) => `<${name}:${found.length}>`,
      key: (name, found) => `<${name}=${found}>`,
    });
    const token = `ghp_${"Zq3".repeat(12)}`;
    assert.equal(
      echo.redactText(`see ${token} and password=hunter2-x`),
      `see <github:${token.length}> and password=<password=hunter2-x>`,
    );
  });
});
