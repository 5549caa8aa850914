// JSON with a repeated key keeps every member once its repeats are renamed (see hostile-json.test.ts
// for what this does for redaction); here the renaming itself, member by member.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { renameDuplicateKeys } from "./duplicate-keys.js";

describe("renameDuplicateKeys", () => {
  test("no repeated key: undefined, whatever repeats among values or across objects", () => {
    assert.equal(renameDuplicateKeys('{"a":1}'), undefined);
    assert.equal(renameDuplicateKeys('{"a":"v","b":"v"}'), undefined);
    assert.equal(renameDuplicateKeys('[{"a":1},{"a":2}]'), undefined);
    assert.equal(renameDuplicateKeys('["a","a"]'), undefined);
  });

  test("two members of one name: the second is renamed, values untouched", () => {
    assert.equal(renameDuplicateKeys('{"a":"v","a":"v"}'), '{"a":"v","(2) a":"v"}');
  });

  test("each further repeat takes the next number, skipping names the object already uses", () => {
    assert.equal(renameDuplicateKeys('{"a":1,"a":2,"a":3}'), '{"a":1,"(2) a":2,"(3) a":3}');
    assert.equal(renameDuplicateKeys('{"a":1,"(2) a":2,"a":3,"a":4}'), '{"a":1,"(2) a":2,"(3) a":3,"(4) a":4}');
  });

  test("keys are compared as they read, escapes included, and objects nest", () => {
    assert.equal(renameDuplicateKeys('{"a":1,"\\u0061":2}'), '{"a":1,"(2) a":2}');
    assert.equal(
      renameDuplicateKeys('{"x":[{"k":"a,b","k":{"k":1,"k":2}}],"x":0}'),
      '{"x":[{"k":"a,b","(2) k":{"k":1,"(2) k":2}}],"(2) x":0}',
    );
  });
});
