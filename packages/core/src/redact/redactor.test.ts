import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Redactor } from "./redactor.js";

describe("payloads serialize safely", () => {
  test("errors, cycles, BigInt, binary and Maps become JSON without throwing", () => {
    const redactor = new Redactor();
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const error = Object.assign(new Error("boom"), { code: "E_BOOM", status: 503 });
    const out = redactor.redact(
      {
        cyclic,
        error,
        big: 10n ** 20n,
        bytes: new Uint8Array([1, 2, 3]),
        map: new Map<string, unknown>([
          ["password", "x"],
          ["ok", 1],
        ]),
        fn: () => 1,
        nan: NaN,
      },
      "payload",
      [],
    ) as {
      cyclic: { self: unknown };
      error: Record<string, unknown> & { stack: string };
      big: unknown;
      bytes: unknown;
      map: unknown;
      nan: unknown;
    };
    assert.equal(out.cyclic.self, "[Circular]");
    assert.equal(out.error.message, "boom");
    assert.equal(out.error.code, "E_BOOM");
    assert.equal(out.error.status, 503);
    assert.equal(out.error.name, "Error");
    assert.match(out.error.stack, /boom/);
    assert.equal(out.big, "100000000000000000000");
    assert.deepEqual(out.bytes, { type: "Uint8Array", bytes: 3, base64: "AQID" });
    assert.deepEqual(out.map, { password: "[REDACTED]", ok: 1 });
    assert.equal("fn" in out, false);
    assert.equal(out.nan, "NaN");
    assert.doesNotThrow(() => JSON.stringify(out));
  });

  test("redactToJson (the recorder's fast path) gives the same data and paths as redact, cycles included", () => {
    const redactor = new Redactor();
    const error = Object.assign(new Error("boom"), { code: "E_BOOM" });
    const value = {
      error,
      big: 2n ** 70n,
      map: new Map([["apiKey", "k"]]),
      list: [{ token: "t", note: "mail bob@example.com" }],
      bytes: new Uint8Array([1]),
    };
    const slowPaths: string[] = [];
    const fastPaths: string[] = [];
    const slow = redactor.redact(value, "payload", slowPaths);
    const fast = JSON.parse(redactor.redactToJson(value, "payload", fastPaths)!);
    assert.deepEqual(fast, slow);
    assert.deepEqual(fastPaths.sort(), slowPaths.sort());
    assert.deepEqual(fastPaths.sort(), ["payload.list.0.note", "payload.list.0.token", "payload.map.apiKey"]);
    const cyclic: Record<string, unknown> = { password: "p" };
    cyclic.again = cyclic;
    const paths: string[] = [];
    assert.deepEqual(JSON.parse(redactor.redactToJson(cyclic, "payload", paths)!), {
      password: "[REDACTED]",
      again: "[Circular]",
    });
    assert.deepEqual(paths, ["payload.password"]);
  });

  test("the plain-data fast path still finds secrets in keys, in text and in embedded JSON", () => {
    const redactor = new Redactor();
    const cases: Array<[unknown, string]> = [
      [{ input: { api_key: "zzz-plain-value" } }, "zzz-plain-value"],
      [{ text: "login with password=hunter2x now" }, "hunter2x"],
      [{ body: JSON.stringify({ nested: { "x-api-key": "abc123def" } }) }, "abc123def"],
      [{ note: "write to carol@example.org" }, "carol@example.org"],
      [{ header: "Authorization: Basic dXNlcjpwYXNz" }, "dXNlcjpwYXNz"],
    ];
    for (const [value, secret] of cases) {
      const paths: string[] = [];
      assert.equal(redactor.jsonIfClean(value), undefined, `the fast path must refuse what holds ${secret}`);
      const json = redactor.redactToJson(value, "payload", paths)!;
      assert.ok(!json.includes(secret), `${secret} leaked: ${json}`);
      assert.ok(paths.length > 0, `paths listed for ${secret}`);
    }
    const clean: string[] = [];
    assert.equal(
      redactor.jsonIfClean({ maxTokens: 4096, id: "call_12345", usage: { inputTokens: 3 } }),
      '{"maxTokens":4096,"id":"call_12345","usage":{"inputTokens":3}}',
    );
    assert.deepEqual(clean, []);
  });

  test("card numbers are found as cards are printed; other runs of numbers stay, even when their digits pass the checksum", () => {
    const redactor = new Redactor();
    assert.equal(redactor.redactText("ids 12345 67890 12347 in the table"), "ids 12345 67890 12347 in the table");
    assert.equal(redactor.redactText("amex 3782 822463 10005 on file"), "amex [REDACTED:card] on file");
    assert.equal(redactor.redactText("visa 4111-1111-1111-1111."), "visa [REDACTED:card].");
    assert.equal(redactor.redactText("rows 95 4111 1111 1111 1111 5"), "rows 95 [REDACTED:card] 5");
    assert.equal(redactor.redactText("pan 5555555555554444"), "pan [REDACTED:card]");
  });

  test("numeric token counts are not mistaken for secrets; card numbers need a valid checksum", () => {
    const redactor = new Redactor();
    const paths: string[] = [];
    const out = redactor.redact(
      { maxTokens: 4096, usage: { inputTokens: 5 }, order: "1234 5678 9012 3456", card: "4111111111111111" },
      "p",
      paths,
    ) as { maxTokens: number; usage: { inputTokens: number }; order: string; card: string };
    assert.equal(out.maxTokens, 4096);
    assert.equal(out.usage.inputTokens, 5);
    assert.equal(out.order, "1234 5678 9012 3456");
    assert.equal(out.card, "[REDACTED:card]");
    assert.deepEqual(paths, ["p.card"]);
  });
});

describe("jsonIfClean: the native fast path takes plain data only", () => {
  test("plain data with empty objects is written natively; an Error, a Map, a typed array or a class instance goes to the careful path", () => {
    const redactor = new Redactor();
    const plain = { extensions: {}, recoveries: {}, list: [{}, 1, "x"] };
    assert.equal(redactor.jsonIfClean(plain), JSON.stringify(plain));
    class Point {
      constructor(readonly x: number) {}
    }
    for (const odd of [new Error("boom"), new Map([["a", 1]]), new Uint8Array([1, 2]), new Point(1), new Set([1])]) {
      assert.equal(redactor.jsonIfClean({ nested: [odd] }), undefined, Object.prototype.toString.call(odd));
      assert.notEqual(redactor.redactToJson({ nested: [odd] }, "p", []), undefined);
    }
    assert.equal(
      redactor.redactToJson({ e: new Error("boom") }, "p", [])!.includes("boom"),
      true,
      "the careful path renders what the fast one refused",
    );
  });
});
