// Values of sensitive keys found only on the lines around given offsets (`keyValueSpans` with
// `near`, the redactor's path once a key name was seen): each line scanned once, none skipped.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { KeyNames } from "./key-names.js";
import { keyValueSpans } from "./key-values.js";
import { Redactor } from "./redactor.js";
import { DEFAULT_SENSITIVE_KEYS } from "./rules.js";

const names = new KeyNames(DEFAULT_SENSITIVE_KEYS);

/** The values found near the offsets given (all lines without), as the text each covers. */
const values = (text: string, near?: number[]) =>
  keyValueSpans(text, (key) => names.kindOf(key), near).map((s) => {
    assert.ok(0 <= s.start && s.start < s.end && s.end <= text.length, JSON.stringify(s));
    return text.slice(s.start, s.end);
  });

describe("only the lines around given offsets (`near`)", () => {
  test("the lines holding the offsets are scanned, each once", () => {
    const text = "password: one1\nuser: x password: two2\npassword: three3";
    const second = text.indexOf("password: two2");
    assert.deepEqual(values(text, [second]), ["two2"]);
    assert.deepEqual(values(text, [0, 3, text.lastIndexOf("password")]), ["one1", "three3"]);
    assert.deepEqual(values(text, [text.indexOf("user"), second]), ["two2"]);
    assert.deepEqual(values(text), ["one1", "two2", "three3"]);
  });

  test("a key on the very next line is found: the scan of one line does not skip the next line's key", () => {
    const text = "password: one1\npassword: two2\nsecret=three3";
    const ends: [number, number, number] = [8, 23, 36];
    assert.equal(text.slice(ends[2] - 6, ends[2]), "secret");
    assert.deepEqual(values(text, ends), ["one1", "two2", "three3"]);
    assert.deepEqual(values(text, [ends[0], ends[2]]), ["one1", "three3"]);
  });

  test("consecutive lines of a .env file are all hidden by the redactor", () => {
    const env = ["API_KEY=k-8f3k29ab", "DB_PASSWORD=Zq8-hunter2", "SECRET=s-77xy", "PORT=8080"].join("\n");
    assert.equal(
      new Redactor().redactText(env),
      "API_KEY=[REDACTED]\nDB_PASSWORD=[REDACTED]\nSECRET=[REDACTED]\nPORT=8080",
    );
  });

  test("a value spanning lines is taken whole, and the lines it covers are not scanned again", () => {
    const text = "secrets:\n  - token: a1\n  - b2\nuser: x";
    assert.deepEqual(values(text, [0, text.indexOf("token")]), ["- token: a1\n  - b2"]);
  });
});
