// What a replacement is told names the key it hides, and holds nothing the same pass hides:
// `trace scrub` writes that name into its pseudonyms (`<password-1>`).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Redactor } from "./redactor.js";

/** Writes the names it is given, as `trace scrub` does. */
const naming = new Redactor(undefined, { shape: (name) => `<${name}>`, key: (key) => `<key:${key}>` });

describe("a key's replacement is named by the key, not the words before it", () => {
  test("a secret named in prose just before a key is not part of the key's name", () => {
    assert.equal(
      naming.redactText("the password Tr0ub4dor99 api_key: zzz-value"),
      "the password <key:password> api_key: <key:api_key>",
    );
    assert.equal(naming.redactText("my password hunter2 token=abc123"), "my password <key:password> token=<key:token>");
  });

  test("a key of several words is named by the words that make it sensitive", () => {
    assert.equal(naming.redactText("my api key: v4lue-1"), "my api key: <key:api key>");
    assert.equal(naming.redactText("AWS Secret Access Key: v4lue-2"), "AWS Secret Access Key: <key:Secret Access Key>");
    assert.equal(naming.redactText("and password=hunter2-x"), "and password=<key:password>");
    assert.equal(naming.redactText("my api\u00a0key: v4lue-3"), "my api\u00a0key: <key:api\u00a0key>", "as written");
  });

  test("cuts name keys the same way", () => {
    const text = "the password Tr0ub4dor99 api_key: zzz-value";
    assert.deepEqual(
      naming.secretSpans(text).map((span) => span.name),
      ["password", "api_key"],
    );
  });
});
