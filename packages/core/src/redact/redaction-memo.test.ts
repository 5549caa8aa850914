// The memo of texts already redacted is bounded: two generations of 4 Mi characters, a text of
// more than a sixteenth of one never kept, a text read again from the older generation kept.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RedactionMemo } from "./redaction-memo.js";

/** A sixteenth of a generation: the largest text kept, and sixteen of them fill one. */
const LARGEST = (4 * 1024 * 1024) / 16;
const text = (name: string, length = LARGEST) => name.padEnd(length, ".");

describe("the redaction memo", () => {
  test("gives back what was set for a text, and nothing for a text never set", () => {
    const memo = new RedactionMemo();
    memo.set("password=x1", "password=[REDACTED]");
    assert.equal(memo.get("password=x1"), "password=[REDACTED]");
    assert.equal(memo.get("password=x2"), undefined);
  });

  test("a text costs its length, and its redacted form's too when that differs: over a sixteenth of a generation, it is not kept", () => {
    const memo = new RedactionMemo();
    memo.set(text("same"), text("same"));
    assert.equal(memo.get(text("same")), text("same"));
    memo.set(text("long", LARGEST + 1), text("long", LARGEST + 1));
    assert.equal(memo.get(text("long", LARGEST + 1)), undefined);
    memo.set(text("half", LARGEST / 2), text("HALF", LARGEST / 2));
    assert.equal(memo.get(text("half", LARGEST / 2)), text("HALF", LARGEST / 2));
    memo.set(text("over", LARGEST / 2 + 1), text("OVER", LARGEST / 2));
    assert.equal(memo.get(text("over", LARGEST / 2 + 1)), undefined);
  });

  test("sixteen of the largest fill a generation, the seventeenth starts a new one; a text read from the older one moves to the current one", () => {
    const memo = new RedactionMemo();
    const names = Array.from({ length: 33 }, (_, i) => text(`t${i}-`));
    for (const name of names.slice(0, 32)) memo.set(name, name);
    // t0..t15 in the older generation, t16..t31 filling the current one exactly.
    assert.equal(memo.get(names[0]), names[0], "the older generation is still read");
    // Reading t0 again moved it into a new generation (t16..t31 became the older one): t1..t15 are gone.
    memo.set(names[32], names[32]);
    assert.equal(memo.get(names[0]), names[0]);
    assert.equal(memo.get(names[1]), undefined, "t1 was only in the generation dropped");
    assert.equal(memo.get(names[31]), names[31]);
  });
});
