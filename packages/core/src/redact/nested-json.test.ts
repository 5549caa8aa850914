// JSON inside a string (a tool's output, a serialized payload) is redacted by structure; what is
// not JSON is left to the text rules (undefined), and the size bound keeps a hostile string from
// being parsed at any length.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { redactNestedJson } from "./nested-json.js";
import { Redactor } from "./redactor.js";

const redactor = new Redactor();

describe("redactNestedJson", () => {
  test("an object or an array, blank-padded or not, is redacted by structure and written compact", () => {
    assert.equal(redactNestedJson(redactor, ' \n{"password": "hunter2"}\n '), '{"password":"[REDACTED]"}');
    assert.equal(redactNestedJson(redactor, '[{"token": "t0k"}]'), '[{"token":"[REDACTED]"}]');
  });

  test("JSON with nothing to redact comes back as it was, spacing included", () => {
    const text = ' { "user": "ann" } ';
    assert.equal(redactNestedJson(redactor, text), text);
  });

  test("what is not an object or an array, or does not parse, is not JSON here", () => {
    for (const text of [
      '"password: hunter2"',
      "42",
      "true",
      '{"password": "hunter2"',
      "{password: hunter2}",
      "[1, 2}",
    ]) {
      assert.equal(redactNestedJson(redactor, text), undefined, text);
    }
  });

  test("up to 4,000,000 characters are parsed, one more is left to the text rules", () => {
    const sized = (length: number) => {
      const head = '{"password": "hunter2", "pad": "';
      return `${head}${"x".repeat(length - head.length - 2)}"}`;
    };
    assert.equal(sized(4_000_000).length, 4_000_000);
    assert.match(redactNestedJson(redactor, sized(4_000_000)) ?? "", /^\{"password":"\[REDACTED\]"/);
    assert.equal(redactNestedJson(redactor, sized(4_000_001)), undefined);
  });

  test("a repeated key keeps every member, renamed, each redacted", () => {
    assert.equal(
      redactNestedJson(redactor, '{"password": "a1", "password": "b2"}'),
      '{"password":"[REDACTED]","(2) password":"[REDACTED]"}',
    );
  });
});
