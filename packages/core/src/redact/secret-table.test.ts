import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { HARMLESS_TEXT, PLANTED_SECRETS } from "../../../../test/support/secrets.js";
import { Redactor } from "./redactor.js";

const redactor = new Redactor();

/** Any 12 characters in a row of the secret's core: a partial leak counts as a leak. */
function leaked(out: string, core: string): boolean {
  if (core.length <= 12) return out.includes(core);
  for (let i = 0; i + 12 <= core.length; i++) if (out.includes(core.slice(i, i + 12))) return true;
  return false;
}

/** The places a secret turns up in agent traffic. */
const CONTEXTS: Array<[string, (secret: string) => unknown]> = [
  ["a plain string", (s) => s],
  ["a sentence", (s) => `Here is what the tool returned: ${s} (keep it safe)`],
  ["a field under a neutral key", (s) => ({ result: { note: s } })],
  ["JSON text inside a string", (s) => JSON.stringify({ body: JSON.stringify({ detail: s }) })],
  ["a Buffer", (s) => ({ body: Buffer.from(`line one\n${s}\n`) })],
  ["an error message", (s) => new Error(`request failed: ${s}`)],
];

describe("a table of real-shaped secrets never survives redaction", () => {
  test(`${PLANTED_SECRETS.length} secrets, ${CONTEXTS.length} contexts each`, () => {
    assert.ok(PLANTED_SECRETS.length >= 50);
    const leaks: string[] = [];
    for (const { name, secret, core } of PLANTED_SECRETS) {
      for (const [where, wrap] of CONTEXTS) {
        const paths: string[] = [];
        const out = JSON.stringify(redactor.redact(wrap(secret), "payload", paths));
        if (leaked(out, core ?? secret) || paths.length === 0) leaks.push(`${name} in ${where}: ${out.slice(0, 200)}`);
        const fast = redactor.jsonIfClean(wrap(secret)) ?? "";
        if (leaked(fast, core ?? secret)) leaks.push(`${name} in ${where} (fast path): ${fast.slice(0, 200)}`);
      }
    }
    // The figure docs/reliability.md quotes.
    console.log(
      `secrets planted: ${PLANTED_SECRETS.length} shapes x ${CONTEXTS.length} contexts x 2 serialization paths = ${PLANTED_SECRETS.length * CONTEXTS.length * 2}; leaked: ${leaks.length}`,
    );
    assert.deepEqual(leaks, []);
  });

  test("ids, hashes, model names, paths and prose about passwords are left alone", () => {
    for (const text of HARMLESS_TEXT) assert.equal(redactor.redactText(text), text);
  });
});
