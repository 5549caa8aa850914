import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { fuzzParameters } from "../../../../test/support/fuzz.js";
import { PLANTED_SECRETS } from "../../../../test/support/secrets.js";
import { Redactor } from "./redactor.js";

const redactor = new Redactor();

/** How a secret can be wrapped on its way into a payload. */
type Wrap = "plain" | "json" | "buffer" | "error" | "map" | "uint8" | "prefixed" | "lines";

const secretArb = fc.constantFrom(...PLANTED_SECRETS);
const wrapArb = fc.constantFrom<Wrap>("plain", "json", "buffer", "error", "map", "uint8", "prefixed", "lines");
// A secret is a token: the text around it ends and starts with something that is not part of one.
const textBefore = fc.string({ maxLength: 40 }).map((s) => s.replace(/[A-Za-z0-9_+/=-]$/, "$& "));
const textAfter = fc.string({ maxLength: 40 }).map((s) => s.replace(/^[A-Za-z0-9_+/=-]/, " $&"));

function wrap(kind: Wrap, text: string, depth: number): unknown {
  switch (kind) {
    case "plain":
      return text;
    case "json": {
      let value: unknown = { text };
      for (let i = 0; i < depth; i++) value = JSON.stringify({ level: i, value });
      return value;
    }
    case "buffer":
      return Buffer.from(text);
    case "uint8":
      return new TextEncoder().encode(text);
    case "error":
      return Object.assign(new Error(`failed: ${text}`), { code: "E_FUZZ" });
    case "map":
      return new Map([["detail", text]]);
    case "prefixed":
      return `[${new Date(0).toISOString()}] INFO ${text}`;
    case "lines":
      return { lines: ["first line", text, "last line"] };
  }
}

/** Any 12 characters in a row of the secret's core. */
function leaks(out: string, core: string): string | undefined {
  if (core.length <= 12) return out.includes(core) ? core : undefined;
  for (let i = 0; i + 12 <= core.length; i++) if (out.includes(core.slice(i, i + 12))) return core.slice(i, i + 12);
  return undefined;
}

describe("the redactor under generated payloads", () => {
  test("a planted secret never survives, whatever surrounds, encodes or nests it", () => {
    let tried = 0;
    fc.assert(
      fc.property(
        secretArb,
        wrapArb,
        textBefore,
        textAfter,
        fc.integer({ min: 0, max: 3 }),
        fc.jsonValue({ maxDepth: 3 }),
        fc.boolean(),
        (planted, kind, before, after, depth, noise, asKey) => {
          tried++;
          const text = `${before}${planted.secret}${after}`;
          const payload = { noise, items: [noise, { [asKey ? "value" : "detail"]: wrap(kind, text, depth) }] };
          const core = planted.core ?? planted.secret;
          const slow = JSON.stringify(redactor.redact(payload, "payload", []));
          const fast = redactor.jsonIfClean(payload) ?? redactor.redactToJson(payload, "payload", []) ?? "";
          assert.equal(leaks(slow, core), undefined, `${planted.name} (${kind}) leaked: ${slow.slice(0, 300)}`);
          assert.equal(
            leaks(fast, core),
            undefined,
            `${planted.name} (${kind}, fast path) leaked: ${fast.slice(0, 300)}`,
          );
        },
      ),
      fuzzParameters(300),
    );
    console.log(`redactor fuzz: ${tried} generated payloads with a planted secret, none leaked`);
    assert.ok(tried >= 300);
  });

  test("any value becomes JSON without throwing, and redacting twice changes nothing more", () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withDate: true,
          withNullPrototype: true,
          withSparseArray: true,
        }),
        (value) => {
          const once = redactor.redact(value, "v", []);
          const json = JSON.stringify(once);
          if (json === undefined) return;
          assert.equal(JSON.stringify(redactor.redact(JSON.parse(json), "v", [])), json);
        },
      ),
      fuzzParameters(300),
    );
  });
});
