// redactToJson (the recorder's hot path: native JSON.stringify with a replacer) against redact
// (the careful walk): the same text and the same redacted paths for every kind of value.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Redactor } from "./redactor.js";
import { REDACTED, type Replacements } from "./replacements.js";
import { redactedJson } from "./to-json.js";

const github = `ghp_${"a1B2".repeat(9)}`;
const redactor = new Redactor();

/** The native walk alone, without the careful fallback `redactToJson` takes when it throws: a fault in it shows. */
function native(policy: Redactor, value: unknown, paths: string[] = [], replace: Replacements = REDACTED) {
  return redactedJson(policy, replace, value, "payload", paths, new Map());
}

/** Both paths over one value: [fast JSON, fast paths, careful JSON, careful paths]. */
function both(value: unknown) {
  const fastPaths: string[] = [];
  const fast = redactor.redactToJson(value, "payload", fastPaths);
  const carefulPaths: string[] = [];
  const careful = JSON.stringify(redactor.redact(value, "payload", carefulPaths));
  return { fast, fastPaths, careful, carefulPaths };
}

function same(value: unknown, json: string, paths: string[]) {
  const { fast, fastPaths, careful, carefulPaths } = both(value);
  const nativePaths: string[] = [];
  assert.equal(native(redactor, value, nativePaths), json, "the native walk");
  assert.deepEqual(nativePaths, paths, "the native walk's paths");
  assert.equal(fast, json, "redactToJson");
  assert.deepEqual(fastPaths, paths, "redactToJson's paths");
  assert.equal(careful, json, "redact");
  assert.deepEqual([...carefulPaths].sort(), [...paths].sort(), "redact's paths");
}

describe("redactToJson writes what redact writes, paths included", () => {
  test("sensitive keys hide any value; their paths are noted", () => {
    same(
      { user: "ann", password: "hunter2", token: 1234, secret: { a: 1 }, nested: { api_key: [1, 2] } },
      '{"user":"ann","password":"[REDACTED]","token":"[REDACTED]","secret":"[REDACTED]","nested":{"api_key":"[REDACTED]"}}',
      ["payload.password", "payload.token", "payload.secret", "payload.nested.api_key"],
    );
  });

  test("secrets in strings, at any depth, and a root string", () => {
    same({ out: [`x ${github}`, "ok"] }, '{"out":["x [REDACTED:github]","ok"]}', ["payload.out.0"]);
    same(`see ${github}`, '"see [REDACTED:github]"', ["payload"]);
    same("plain", '"plain"', []);
  });

  test("an option's value in an argument list, dashes left off its name", () => {
    same(["--password", "hunter2", "-v"], '["--password","[REDACTED]","-v"]', ["payload.1"]);
    same(["password", "x"], '["password","x"]', []);
  });

  test("a key that is a secret is renamed, away from every name of its object: no member is lost", () => {
    same({ [github]: 1, "[REDACTED:github]": 2 }, '{"[REDACTED:github] (2)":1,"[REDACTED:github]":2}', [
      "payload.[REDACTED:github] (2)",
    ]);
    same({ "[REDACTED:github]": 2, [github]: 1 }, '{"[REDACTED:github]":2,"[REDACTED:github] (2)":1}', [
      "payload.[REDACTED:github] (2)",
    ]);
    same(
      { a: 0, [github]: 1, [`ghp_${"c3D4".repeat(9)}`]: 2 },
      '{"a":0,"[REDACTED:github]":1,"[REDACTED:github] (2)":2}',
      ["payload.[REDACTED:github]", "payload.[REDACTED:github] (2)"],
    );
  });

  test("BigInt, Map, Set, Error and binary are written as redact writes them", () => {
    same({ n: 12n }, '{"n":"12"}', []);
    same(
      {
        m: new Map<unknown, unknown>([
          ["k", github],
          [{ toString: () => "obj" }, "v"],
        ]),
      },
      '{"m":{"k":"[REDACTED:github]","obj":"v"}}',
      ["payload.m.k"],
    );
    same({ s: new Set(["a", github]) }, '{"s":["a","[REDACTED:github]"]}', ["payload.s.1"]);
    const bytes = new TextEncoder().encode(`key ${github}`);
    const { fast, careful, fastPaths } = both({ b: bytes });
    assert.equal(fast, careful);
    assert.ok(fast?.includes("[REDACTED:github]") && !fast.includes(github), fast);
    assert.deepEqual(fastPaths, ["payload.b"]);
    const serialized = both({ b: JSON.parse(JSON.stringify(Buffer.from(`key ${github}`))) });
    assert.equal(serialized.fast, serialized.careful);
    assert.ok(!serialized.fast?.includes(github) && serialized.fast?.includes("[REDACTED:github]"), serialized.fast);
    const error = both({ e: new Error(`failed with ${github}`) });
    assert.equal(error.fast, error.careful);
    assert.ok(!error.fast?.includes(github), error.fast);
  });

  test("null, numbers and booleans as they are; undefined members left out; no value, no JSON", () => {
    same({ a: null, b: 1, c: true, d: undefined }, '{"a":null,"b":1,"c":true}', []);
    assert.equal(redactor.redactToJson(undefined, "payload", []), undefined);
  });

  test("a cycle falls back to the careful walk", () => {
    const value: Record<string, unknown> = { password: "x" };
    value.self = value;
    const nativePaths: string[] = [];
    assert.throws(() => native(redactor, value, nativePaths), TypeError, "the native walk refuses a cycle");
    assert.deepEqual(nativePaths, [], "and notes no path of a walk it gave up");
    const paths: string[] = [];
    const json = redactor.redactToJson(value, "payload", paths);
    assert.ok(json?.startsWith('{"password":"[REDACTED]"'), json);
    assert.ok(paths.includes("payload.password"), paths.join());
  });
});

describe("custom replacements get the name and the text of what they hide", () => {
  const replace: Replacements = { shape: (name) => `<${name}>`, key: (name, found) => `<${name}:${found}>` };
  const named = new Redactor(undefined, replace);
  function bothNamed(value: unknown): [string | undefined, string] {
    const fast = named.redactToJson(value, "payload", []);
    assert.equal(native(named, value, [], replace), fast, "the native walk");
    return [fast, JSON.stringify(named.redact(value, "payload", []))];
  }

  test("an option's name without its dashes, a key's value as text or as its JSON", () => {
    for (const [value, json] of [
      [["--password", "hunter2"], '["--password","<password:hunter2>"]'],
      [{ token: 1234, secret: { a: [1] } }, '{"token":"<token:1234>","secret":"<secret:{\\"a\\":[1]}>"}'],
    ] as const) {
      assert.deepEqual(bothNamed(value), [json, json]);
    }
  });

  test("dates as ISO text, an invalid one as null, on both paths", () => {
    const json = '{"at":"1970-01-01T00:00:00.000Z","bad":null}';
    assert.deepEqual(bothNamed({ at: new Date(0), bad: new Date(Number.NaN) }), [json, json]);
  });
});

describe("jsonIfClean with redaction off: native JSON of plain data only", () => {
  const off = new Redactor(false);
  test("plain data is written as JSON.stringify writes it", () => {
    assert.equal(off.jsonIfClean({ a: [1, "x"], b: null }), '{"a":[1,"x"],"b":null}');
  });
  test("what only the careful path writes right is left to it", () => {
    for (const value of [
      { e: new Error("x") },
      { m: new Map() },
      new Uint8Array([1]),
      Buffer.from("x").toJSON(),
      1n,
      undefined,
    ]) {
      assert.equal(off.jsonIfClean(value), undefined, String(value));
    }
    assert.equal(off.jsonIfClean({ text: "{}" }), undefined, "a text holding {} is sent the careful way too");
  });
});
