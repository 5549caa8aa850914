import assert from "node:assert/strict";
import { test } from "node:test";
import { toJsonSafe } from "./json.js";

test('a "__proto__" member of a recorded payload is printed as a member, not lost as a prototype', () => {
  const payload = JSON.parse('{"title":"report","__proto__":{"note":"hidden"},"n":1}') as Record<string, unknown>;
  const printed = toJsonSafe({ ...payload, big: 2n }) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(printed), Object.prototype);
  assert.equal(JSON.stringify(printed), '{"title":"report","__proto__":{"note":"hidden"},"n":1,"big":2}');
});
