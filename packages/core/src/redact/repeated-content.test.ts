import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Redactor } from "./redactor.js";

// The redactor remembers what it made of each text so a text seen again is not scanned again. These
// tests prove the memory can never let a secret through: every copy of secret-bearing content
// is redacted, however often and in whatever position it repeats.
describe("redaction of repeated content", () => {
  const secret = `ghp_${"Zq3".repeat(12)}`;
  const dirty = `the deploy log says: export GITHUB_TOKEN=${secret} then retried`;

  test("every copy of a secret-bearing string is redacted, through every entry point", () => {
    const redactor = new Redactor();
    for (let copy = 0; copy < 50; copy++) {
      assert.ok(!redactor.redactText(dirty).includes(secret), `copy ${copy} of the string leaked`);
      assert.equal(redactor.jsonIfClean({ result: dirty }), undefined, `copy ${copy}: the fast path accepted a secret`);
      assert.ok(
        !redactor.redactToJson({ messages: [{ content: dirty }] }, "payload", [])!.includes(secret),
        `copy ${copy} leaked from redactToJson`,
      );
      assert.ok(
        !JSON.stringify(redactor.redact([dirty, { text: dirty }], "payload", [])).includes(secret),
        `copy ${copy} leaked from redact`,
      );
    }
  });

  test("a clean string remembered as clean does not vouch for a near copy that holds a secret", () => {
    const redactor = new Redactor();
    const clean = "the deploy log says: export GITHUB_TOKEN_HINT then retried".repeat(20);
    for (let i = 0; i < 5; i++) assert.equal(redactor.redactText(clean), clean);
    const nearCopy = `${clean} ${secret}`;
    assert.ok(!redactor.redactText(nearCopy).includes(secret));
    assert.equal(redactor.jsonIfClean({ a: clean, b: nearCopy }), undefined);
  });

  test("a secret under a sensitive key is redacted even when the same text was clean elsewhere", () => {
    const redactor = new Redactor();
    const value = "plain-looking-value-1234567";
    assert.equal(redactor.jsonIfClean({ note: value }), JSON.stringify({ note: value }));
    assert.equal(redactor.jsonIfClean({ password: value }), undefined);
    assert.ok(!redactor.redactToJson({ password: value }, "payload", [])!.includes(value));
  });

  test("the memory is bounded: after many megabytes of distinct clean text, secrets are still caught", () => {
    const redactor = new Redactor();
    const filler = "x".repeat(64 * 1024);
    for (let i = 0; i < 400; i++) redactor.redactText(`${i} ${filler}`);
    for (let copy = 0; copy < 3; copy++) assert.ok(!redactor.redactText(dirty).includes(secret));
  });

  test("a value whose toJSON returns a secret is not taken by the fast path", () => {
    const redactor = new Redactor();
    const sneaky = { shown: "nothing here", toJSON: () => ({ shown: dirty }) };
    const fast = redactor.jsonIfClean({ result: sneaky });
    assert.ok(fast === undefined || !fast.includes(secret), `leaked via toJSON: ${fast}`);
  });
});
