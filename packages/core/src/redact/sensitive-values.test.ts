// The value of a sensitive key is replaced whatever its type: a PIN as a number or a credentials
// object is as secret as a string, on every path a value can take through the redactor.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Redactor } from "./redactor.js";

/** Values that are not strings, each with a part that would betray it if it got through. */
const VALUES: Array<[string, unknown, string]> = [
  ["a number", 480_213, "480213"],
  ["an object", { user: "deploy", pass: "Tr0ub4dor&3" }, "Tr0ub4dor"],
  ["an array", ["Tr0ub4dor&3"], "Tr0ub4dor"],
  ["a boolean", true, "true"],
];

describe("a sensitive key's value is redacted whatever its type", () => {
  const redactor = new Redactor();
  for (const [what, value, betrays] of VALUES) {
    const payload = { service: "db", password: value, nested: { apiKey: value } };

    test(`${what}: redact`, () => {
      const paths: string[] = [];
      const out = redactor.redact(payload, "payload", paths);
      assert.deepEqual(out, { service: "db", password: "[REDACTED]", nested: { apiKey: "[REDACTED]" } });
      assert.deepEqual(paths.sort(), ["payload.nested.apiKey", "payload.password"]);
    });

    test(`${what}: redactToJson (the recorder's path)`, () => {
      const paths: string[] = [];
      const json = redactor.redactToJson(payload, "payload", paths)!;
      assert.deepEqual(JSON.parse(json), { service: "db", password: "[REDACTED]", nested: { apiKey: "[REDACTED]" } });
      assert.deepEqual(paths.sort(), ["payload.nested.apiKey", "payload.password"]);
      assert.ok(!json.includes(betrays));
    });

    test(`${what}: jsonIfClean declines it (redaction is needed)`, () => {
      assert.equal(redactor.jsonIfClean(payload), undefined);
      assert.equal(redactor.jsonIfClean({ list: [payload] }), undefined, "nested in an array too");
    });

    test(`${what}: JSON inside a string, and a Map's entry`, () => {
      const text = redactor.redactText(JSON.stringify(payload));
      assert.deepEqual(JSON.parse(text), { service: "db", password: "[REDACTED]", nested: { apiKey: "[REDACTED]" } });
      const map = redactor.redact(new Map<string, unknown>([["token", value]]), "payload", []);
      assert.deepEqual(map, { token: "[REDACTED]" });
    });
  }
});
