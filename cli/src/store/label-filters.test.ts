import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { labelFilters, labelsMatch } from "./label-filters.js";

const run = { metadata: { "user.id": "u_42", ticket: 981, vip: true, "a=b": "c=d" }, tags: ["vip", "eu"] };

describe("--tag and --where", () => {
  test("every tag must be there, each entry at its value as text", () => {
    const match = (tags: string[], where: string[]) => labelsMatch(run, labelFilters(tags, where)!);
    assert.equal(match(["vip"], []), true);
    assert.equal(match(["vip", "eu"], []), true);
    assert.equal(match(["vip", "us"], []), false);
    assert.equal(match([], ["ticket=981"]), true);
    assert.equal(match([], ["ticket=98"]), false);
    assert.equal(match([], ["ticket=9811"]), false);
    assert.equal(match([], ["vip=true"]), true);
    assert.equal(match([], ["user.id=u_42", "ticket=981"]), true);
    assert.equal(match([], ["user.id=u_42", "ticket=982"]), false);
    // The first = splits: a key cannot hold one, a value can.
    assert.equal(match([], ["a=b=c=d"]), false);
    assert.equal(match([], ["missing="]), false);
    assert.equal(match([], ["toString=function toString() { [native code] }"]), false);
  });

  test("nothing given is no filter; a malformed value is a usage error", () => {
    assert.equal(labelFilters(undefined, undefined), undefined);
    assert.equal(labelFilters([], []), undefined);
    assert.throws(() => labelFilters([], ["ticket"]), /--where takes key=value/);
    assert.throws(() => labelFilters([], ["=981"]), /--where takes key=value/);
    assert.throws(() => labelFilters([""], []), /--tag needs a tag/);
    assert.deepEqual(labelFilters([], ["note=a=b"])?.where, [["note", "a=b"]]);
  });
});
