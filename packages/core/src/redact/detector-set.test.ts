// A pattern's hint decides which texts it runs on (a cheap pre-check, see RedactionPattern.hint):
// a policy's patterns are chosen by one pass over the text's hint literals.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Detector } from "./detector.js";
import { DetectorSet } from "./detector-set.js";
import { Redactor } from "./redactor.js";
import type { RedactionPattern } from "./rules.js";

/** A policy of these patterns only (no keys, no maintained shapes), so each finding is theirs. */
const only = (...patterns: RedactionPattern[]) => new Redactor({ keys: [], patterns, secretShapes: false });

describe("hints choose the patterns a text runs", () => {
  test("a pattern runs on a text that holds one of its hint literals, never on one that holds only another pattern's", () => {
    const policy = only(
      { name: "alpha", pattern: /alpha\d+/g, hint: ["alpha"] },
      { name: "beta", pattern: /beta\d+/g, hint: ["zzz", "yyy"] },
    );
    assert.equal(policy.redactText("alpha1 beta2"), "[REDACTED:alpha] beta2");
    assert.equal(policy.redactText("yyy beta2"), "yyy [REDACTED:beta]");
  });

  test("a hint function is asked with the lower-cased text; a pattern with no hint runs on every text", () => {
    const asked: string[] = [];
    const policy = only(
      {
        name: "gated",
        pattern: /gate\d+/g,
        hint: (lower) => {
          asked.push(lower);
          return lower.includes("open");
        },
      },
      { name: "always", pattern: /any\d+/g },
    );
    assert.equal(policy.redactText("Gate shut: gate1 any2"), "Gate shut: gate1 [REDACTED:always]");
    assert.equal(policy.redactText("OPEN gate1 any2"), "OPEN [REDACTED:gated] [REDACTED:always]");
    assert.deepEqual(asked, ["gate shut: gate1 any2", "open gate1 any2"]);
  });

  test("of two patterns that find the same text, the first in the policy names it, whatever woke each", () => {
    const first = { name: "first", pattern: /k3y\d+/g, hint: ["k3y"] };
    const second = { name: "second", pattern: /k3y\d+/g };
    assert.equal(only(first, second).redactText("use k3y42"), "use [REDACTED:first]");
    assert.equal(only(second, first).redactText("use k3y42"), "use [REDACTED:second]");
    const third = { name: "third", pattern: /k3y\d+/g, hint: ["use"] };
    assert.equal(only(third, first).redactText("use k3y42"), "use [REDACTED:third]");
    assert.equal(only(first, third).redactText("use k3y42"), "use [REDACTED:first]");
  });

  test("a text's candidates are exactly the detectors it may trip, each once, in the policy's order", () => {
    const detector = (name: string, hint?: Detector["hint"]): Detector => ({ name, hint, find: () => [] });
    const set = new DetectorSet(
      [
        detector("both", ["aa", "bb"]),
        detector("shut", () => false),
        detector("other", ["cc"]),
        detector("always"),
        detector("open", (lower) => lower.includes("aa")),
        detector("aa-only", ["aa"]),
      ],
      [],
      [],
    );
    const names = (text: string) => set.candidates(set.scan(text), text).map((d) => d.name);
    assert.deepEqual(names("xx aa bb"), ["both", "always", "open", "aa-only"]);
    assert.deepEqual(names("cc"), ["other", "always"]);
    assert.deepEqual(names("nothing"), ["always"]);
  });
});
