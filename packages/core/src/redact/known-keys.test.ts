// Object keys are classified once and remembered, up to a bound: a hostile payload with endless
// distinct keys must not grow the memo without limit, and the memo must change no answer.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { KeyNames, PLAIN, SECRET } from "./key-names.js";
import { KnownKeys } from "./known-keys.js";

describe("KnownKeys", () => {
  test("a key's kind is its name's kind, remembered: the same record each time", () => {
    const known = new KnownKeys(new KeyNames(["password"]));
    assert.equal(known.get("db_password").kind, SECRET);
    assert.equal(known.get("content").kind, PLAIN);
    assert.equal(known.get("content"), known.get("content"));
  });

  test("past 10,000 keys, new ones are classified each time and not kept; those kept stay", () => {
    const known = new KnownKeys(new KeyNames(["password"]));
    for (let i = 0; i < 10_000; i++) known.get(`k${i}`);
    assert.equal(known.get("k0"), known.get("k0"));
    assert.equal(known.get("k9999"), known.get("k9999"));
    assert.notEqual(known.get("k10000"), known.get("k10000"), "the 10,001st key is not kept");
    assert.equal(known.get("x_password").kind, SECRET, "still classified");
  });
});
