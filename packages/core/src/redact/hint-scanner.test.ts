// One pass finds a policy's hint literals and sensitive keys used as keys (see detector-set.ts):
// what it misses, no detector runs on. Exact results on each rule's edges.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HintScanner } from "./hint-scanner.js";

const scanner = new HintScanner(["ghp_", "sk-ant-", "x", "ab"], ["password", "apikey", "auth"], ["auth"]);
const literals = (text: string) => [...scanner.scan(text).literals].sort();
const keyAt = (text: string) => scanner.scan(text).keyAt;

describe("HintScanner", () => {
  test("finds every literal that occurs, overlapping ones and one-letter ones included, and no other", () => {
    assert.deepEqual(literals("see ghp_abc"), [0, 3]);
    assert.deepEqual(literals("sk-ant-x"), [1, 2]);
    assert.deepEqual(literals("ab"), [3]);
    assert.deepEqual(literals("xy"), [2], "a one-letter literal before any character");
    assert.deepEqual(literals("gh_p sk-an"), []);
    assert.deepEqual(literals("é ghp_"), [0]);
    assert.deepEqual(literals("x\u007f"), [2], "a one-letter literal before the last ASCII character");
    // A byte past ASCII starts nothing: `è` (232 = 128 + `h`) must not walk on as if from `g`.
    assert.deepEqual(literals("èp_"), []);
  });

  test("a trie past its first 64 states still finds every literal, and no prefix of one", () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}x${"abcdefgh"[i % 8]}z`);
    const big = new HintScanner(words, []);
    words.forEach((word, i) => {
      assert.deepEqual([...big.scan(` ${word} `).literals], [i], word);
    });
    assert.deepEqual([...big.scan("w1x w12xe w3").literals], []);
  });

  test("literals and keys beyond ASCII are found too, and only where they occur", () => {
    const wide = new HintScanner(["ab", "número"], ["password", "contraseña"]);
    assert.deepEqual([...wide.scan("el número ab").literals].sort(), [0, 1]);
    assert.deepEqual([...wide.scan("el numero").literals], []);
    const used = wide.scan("contraseña: x");
    assert.equal(used.keyUsed, true);
    assert.equal(used.keyAt, undefined, "searched whole: the tries cannot say where");
    assert.deepEqual(wide.scan("password: x").keyAt, [8]);
    assert.equal(wide.scan("contrasena: x").keyUsed, false);
  });

  test("a key is used when a follower comes after it, and keyAt says where each use ends", () => {
    assert.deepEqual(keyAt('password: x "password"= 1'), [8, 21]);
    for (const follower of ['"', "'", "\\", ":", "=", ">", " ", "\u00a0"]) {
      assert.deepEqual(keyAt(`password${follower}`), [8], JSON.stringify(follower));
    }
    assert.deepEqual(keyAt("password"), [], "at the end of the text");
    assert.deepEqual(keyAt("passwordx passwor: apassword"), [], "no follower, a prefix, at the end");
    assert.deepEqual(keyAt("passwordx: 1"), [], "a letter then a follower is another word");
  });

  test("a key's words may be joined by - _ or a space", () => {
    for (const joined of ["api key:", "api_key:", "api-key:", "api\u00a0key:"])
      assert.deepEqual(keyAt(joined), [7], joined);
    assert.deepEqual(keyAt("apikey:"), [6]);
    assert.deepEqual(keyAt("a_p_i key:"), [9]);
    assert.deepEqual(keyAt("api.key:"), []);
  });

  test("a strict key is used only before a strict follower; a plural before one too", () => {
    assert.deepEqual(keyAt("auth: x"), [4]);
    assert.deepEqual(keyAt("auth x"), []);
    assert.deepEqual(keyAt("passwords: x"), [8]);
    assert.deepEqual(keyAt("passwords x"), []);
    assert.equal(scanner.scan("auth x").keyUsed, false);
    assert.equal(scanner.scan("auth= x").keyUsed, true);
  });

  test("past 32 uses the text is searched whole: keyAt undefined, keyUsed still true", () => {
    const many = (n: number) => "password: x\n".repeat(n);
    assert.equal(keyAt(many(32))?.length, 32);
    const scan = scanner.scan(many(33));
    assert.equal(scan.keyAt, undefined);
    assert.equal(scan.keyUsed, true);
    assert.equal(scanner.scan(many(40)).keyAt, undefined, "more uses after the limit change nothing");
  });
});
