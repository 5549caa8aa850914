// Any value as JSON-safe data, the same through redact (the careful walk) and redactToJson (the
// recorder's path through JSON.stringify): dates, sets, maps with odd keys, toJSON, values JSON
// cannot hold, objects seen twice, and how deep the careful walk goes.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Redactor } from "./redactor.js";

const redactor = new Redactor();

/** The value through both paths, with the paths each noted as redacted. */
function both(value: unknown): Array<{ data: unknown; paths: string[] }> {
  const slow: string[] = [];
  const fast: string[] = [];
  const redacted = redactor.redact(value, "p", slow);
  const json = redactor.redactToJson(value, "p", fast);
  return [
    { data: redacted, paths: slow },
    { data: json === undefined ? undefined : JSON.parse(json), paths: fast },
  ];
}

describe("values JSON has no form for", () => {
  test("dates as ISO text (an invalid one null), sets as arrays, maps with keys of any type as objects", () => {
    const value = {
      at: new Date(0),
      never: new Date(Number.NaN),
      tags: new Set(["a", 1]),
      map: new Map<unknown, unknown>([
        [1, "one"],
        [Object.create(null), "odd"],
        ["token", "t0k3n-value"],
      ]),
    };
    for (const { data, paths } of both(value)) {
      assert.deepEqual(data, {
        at: "1970-01-01T00:00:00.000Z",
        never: null,
        tags: ["a", 1],
        map: { "1": "one", "[object]": "odd", token: "[REDACTED]" },
      });
      assert.deepEqual(paths, ["p.map.token"]);
    }
  });

  test("undefined, functions and symbols vanish from objects and are null in arrays", () => {
    for (const { data } of both({
      u: undefined,
      f: () => 1,
      s: Symbol("s"),
      list: [undefined, () => 1, Symbol("x"), 2],
      kept: 0,
    }))
      assert.deepEqual(data, { list: [null, null, null, 2], kept: 0 });
  });

  test("a toJSON's data is what is redacted", () => {
    for (const { data, paths } of both({ wrapped: { toJSON: () => ({ password: "hunter2-tj", note: "ok" }) } })) {
      assert.deepEqual(data, { wrapped: { password: "[REDACTED]", note: "ok" } });
      assert.deepEqual(paths, ["p.wrapped.password"]);
    }
  });

  test("an object met twice, not in a cycle, is written twice", () => {
    const shared = { password: "hunter2-shared", n: 1 };
    for (const { data, paths } of both({ a: shared, b: [shared] })) {
      assert.deepEqual(data, { a: { password: "[REDACTED]", n: 1 }, b: [{ password: "[REDACTED]", n: 1 }] });
      assert.deepEqual(paths.sort(), ["p.a.password", "p.b.0.password"]);
    }
  });

  test("non-finite numbers and BigInt as text in the careful walk", () => {
    assert.deepEqual(redactor.redact({ n: Number.NaN, i: Infinity, m: -Infinity, b: 12n, z: -0 }, "p", []), {
      n: "NaN",
      i: "Infinity",
      m: "-Infinity",
      b: "12",
      z: -0,
    });
  });
});

describe("the careful walk's depth", () => {
  /** `levels` objects, each the `n` of the one before, around "leaf". */
  const nest = (levels: number): unknown => (levels === 0 ? "leaf" : { n: nest(levels - 1) });
  /** What is found `levels` steps down. */
  const down = (value: unknown, levels: number): unknown =>
    levels === 0 ? value : down((value as { n: unknown }).n, levels - 1);

  test("64 objects deep are written whole; the 65th is cut, whatever it holds", () => {
    assert.equal(down(redactor.redact(nest(64), "p", []), 64), "leaf");
    assert.equal(down(redactor.redact(nest(65), "p", []), 64), "[Truncated: too deep]");
    assert.equal(down(redactor.redact(nest(66), "p", []), 64), "[Truncated: too deep]");
  });

  test("an array, a Map, a toJSON and what it gives each count as a level", () => {
    // Each round is four levels: an array, a Map, an object with toJSON, the object it gives.
    const round = (inner: unknown): unknown => [new Map([["m", { toJSON: () => ({ e: inner }) }]])];
    const rounds = (n: number): unknown => (n === 0 ? "leaf" : round(rounds(n - 1)));
    assert.doesNotMatch(JSON.stringify(redactor.redact(rounds(16), "p", [])), /Truncated/);
    assert.match(JSON.stringify(redactor.redact(rounds(17), "p", [])), /Truncated: too deep/);
  });
});

describe("the value of a sensitive key that is not a string", () => {
  test("is replaced as the JSON of its redacted walk: a secret inside it is not handed to the replacement", () => {
    const given: string[] = [];
    const echo = new Redactor(undefined, {
      shape: (name) => `[${name}]`,
      key: (_key, found) => {
        given.push(found);
        return "[hidden]";
      },
    });
    const token = `ghp_${"Zq3".repeat(12)}`;
    const paths: string[] = [];
    assert.deepEqual(echo.redact({ password: { note: token, when: new Date(0) } }, "p", paths), {
      password: "[hidden]",
    });
    assert.deepEqual(given, ['{"note":"[github]","when":"1970-01-01T00:00:00.000Z"}']);
    assert.deepEqual(paths, ["p.password"], "the inner redaction is not listed: the whole value is");
  });
});
