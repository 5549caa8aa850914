// Which key names are sensitive (`KeyNames`) and which of their values are hidden (`hidesValue`):
// suffixes, plurals, the credential-only `auth`, paths, versions and counts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CREDENTIAL, hidesValue, KeyNames, normalizeKey, PLAIN, PLURAL, SECRET } from "./key-names.js";

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("normalizeKey", () => {
  test("lower case, without -, _, . and white space", () => {
    assert.equal(normalizeKey("X-Api_Key.v 2\tB"), "xapikeyv2b");
  });
});

describe("KeyNames.kindOf", () => {
  const names = new KeyNames(["password", "token", "auth", "Api-Key", ""]);

  test("a key equal to a name, or ending with one, spelt any way, is secret", () => {
    for (const key of ["password", "db_password", "DB.Password", "x-api-key", "openaiApiKey", "TOKEN"])
      assert.equal(names.kindOf(key), SECRET, key);
  });

  test("a name in the middle or at the start of a key is not", () => {
    for (const key of ["passwordHint", "tokenizer", "apiKeyId", "user"]) assert.equal(names.kindOf(key), PLAIN, key);
  });

  test("the plural of a name is plural; of auth, credential", () => {
    assert.equal(names.kindOf("passwords"), PLURAL);
    assert.equal(names.kindOf("inputTokens"), PLURAL);
    assert.equal(names.kindOf("auths"), CREDENTIAL);
  });

  test("auth is credential-only, but a strong name it also ends with wins, whichever comes first", () => {
    assert.equal(names.kindOf("auth"), CREDENTIAL);
    assert.equal(names.kindOf("dockerAuth"), CREDENTIAL);
    assert.equal(new KeyNames(["auth", "xauth"]).kindOf("xauth"), SECRET);
    assert.equal(new KeyNames(["xauth", "auth"]).kindOf("xauth"), SECRET);
    assert.equal(new KeyNames(["auth", "auths"]).kindOf("auths"), SECRET);
  });

  test("a plural does not override a secret or credential match of another name", () => {
    assert.equal(new KeyNames(["token", "tokens"]).kindOf("tokens"), SECRET);
    assert.equal(new KeyNames(["tokens", "token"]).kindOf("tokens"), SECRET);
    assert.equal(new KeyNames(["auth", "sauth"]).kindOf("sauth"), SECRET);
    assert.equal(new KeyNames(["s", "auth"]).kindOf("auths"), SECRET);
  });

  test("the plural of a strong name beats the plural of auth, whichever comes first (extraKeys: oauth)", () => {
    assert.equal(new KeyNames(["auth", "oauth"]).kindOf("oauths"), PLURAL);
    assert.equal(new KeyNames(["oauth", "auth"]).kindOf("oauths"), PLURAL);
  });

  test("a path names no secret", () => {
    assert.equal(names.kindOf("node_modules/token"), PLAIN);
  });

  test("an empty name matches nothing", () => {
    assert.equal(new KeyNames(["", "-"]).kindOf("anything"), PLAIN);
  });
});

describe("the names used in text", () => {
  test("textNames: a name that ends with another adds nothing", () => {
    assert.deepEqual(new KeyNames(["token", "accessToken", "password", "secret"]).textNames(), [
      "token",
      "password",
      "secret",
    ]);
    assert.deepEqual(new KeyNames(["token", "token"]).textNames(), ["token", "token"], "a name does not hide itself");
  });

  test("strictNames: only auth", () => {
    assert.deepEqual(new KeyNames(["auth", "token", "Auth"]).strictNames(), ["auth", "auth"]);
  });

  test("shortest: a name and two characters, at most 6", () => {
    assert.equal(new KeyNames(["pwd", "password"]).shortest(), 5);
    assert.equal(new KeyNames(["password"]).shortest(), 6);
    assert.equal(new KeyNames(["abcd"]).shortest(), 6);
    assert.equal(new KeyNames(["abc"]).shortest(), 5);
    assert.equal(new KeyNames([]).shortest(), 6);
  });
});

describe("hidesValue", () => {
  test("a secret key hides any value but nothing, an empty string and a function", () => {
    for (const value of ["x", 0, 42, false, { a: 1 }, ["a"]])
      assert.equal(hidesValue(SECRET, value), true, JSON.stringify(value));
    for (const value of [undefined, null, "", () => 1]) assert.equal(hidesValue(SECRET, value), false, String(value));
  });

  test("a plain key hides nothing", () => {
    assert.equal(hidesValue(PLAIN, "Zq8-hunter2"), false);
    assert.equal(hidesValue(PLAIN, b64("ci:Zq8-hunter2")), false);
  });

  test("a version or version range is no secret, even under a secret key", () => {
    for (const value of [
      "1.2.3",
      "^0.7.2",
      "~1.0.4",
      ">= 0.6",
      "<2.0",
      "=1.0",
      "v1.2",
      "1.x || 2.x",
      "1.2.3-beta.1",
      "1.0 - 2.0",
      " 1.2 ",
    ]) {
      assert.equal(hidesValue(SECRET, value), false, value);
    }
    for (const value of ["10.20.30", "1.22.333", ">= 10.4"]) assert.equal(hidesValue(SECRET, value), false, value);
    for (const value of ["1", "1.2.3.4.5x", "^hunter2", "1.2a", "Zq8 1.2.3", "hunter1.2"])
      assert.equal(hidesValue(SECRET, value), true, value);
    assert.equal(hidesValue(SECRET, 1.5), true, "a number is no version");
  });

  test("a plural key hides values but counts (numbers, booleans, a leading number in text)", () => {
    for (const value of [128, true, "128", " 4096, max", "1,024", "3_000 tokens", "7}", "12)", "12]", "2;"])
      assert.equal(hidesValue(PLURAL, value), false, String(value));
    for (const value of ["Zq8-hunter2", "12ab", ["a"], "x 12", ["12"], [128]])
      assert.equal(hidesValue(PLURAL, value), true, String(value));
  });

  test("a credential key hides base64 of user:password only, trimmed", () => {
    assert.equal(hidesValue(CREDENTIAL, b64("ci:Zq8-hunter2")), true);
    assert.equal(hidesValue(CREDENTIAL, ` ${b64("ci:Zq8-hunter2")}\n`), true);
    assert.equal(hidesValue(CREDENTIAL, "basic"), false);
    assert.equal(hidesValue(CREDENTIAL, 12345678), false);
  });
});
