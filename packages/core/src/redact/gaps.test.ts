import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Redactor } from "./redactor.js";

const redactor = new Redactor();
const clean = (value: unknown) => JSON.stringify(redactor.redact(value, "payload", []));

describe("redaction gaps found by review stay closed", () => {
  test("key=value pairs inside a JSON-encoded string", () => {
    const out = clean({ config: JSON.stringify({ db: "Server=db1;User Id=app;Password=Tr0ub4dor&3" }) });
    assert.ok(!out.includes("Tr0ub4dor"), out);
    assert.match(out, /Server=db1/);
  });

  for (const key of [
    "aws_secret_access_key",
    "secret_key",
    "client_secret",
    "private_key",
    "passwd",
    "pwd",
    "session_token",
    "refresh_token",
    "x-api-key",
    "dsn",
  ]) {
    test(`the key ${key} is sensitive as a field and inside text`, () => {
      const value = `v4lue-${key.length}-Zq9`;
      assert.equal(clean({ [key]: value }).includes(value), false);
      assert.equal(clean({ log: `${key}=${value}` }).includes(value), false);
      assert.equal(clean({ log: `"${key}": "${value}"` }).includes(value), false);
    });
  }

  test("a no-break space as separator", () => {
    assert.ok(!clean({ log: "password\u00a0=\u00a0Nbsp-s3cret" }).includes("Nbsp-s3cret"));
    assert.ok(!clean({ log: "api\u00a0key: nbspKey12345" }).includes("nbspKey12345"));
  });

  test("the tail after ';' in a password value", () => {
    const out = redactor.redactText("password=Hunt;Tail");
    assert.equal(out, "password=[REDACTED]");
  });

  test("Buffer values are redacted, not stored as byte arrays", () => {
    for (const value of [
      Buffer.from(`password=hunter2 and ghp_${"a1".repeat(18)}`),
      new TextEncoder().encode("token: abc123def456"),
    ]) {
      const paths: string[] = [];
      const out = JSON.stringify(redactor.redact({ body: value }, "payload", paths));
      const json = redactor.redactToJson({ body: value }, "payload", [])!;
      const fast = redactor.jsonIfClean({ body: value }) ?? "";
      for (const text of [out, json, fast]) {
        assert.ok(!text.includes("hunter2") && !text.includes("abc123def456") && !text.includes("a1a1a1a1a1"), text);
        assert.ok(!text.includes('"data":['), `bytes as an array: ${text}`);
      }
      assert.deepEqual(paths, ["payload.body"]);
    }
  });

  test("binary that is not text keeps only its size when its bytes hold a secret", () => {
    const bytes = Buffer.concat([Buffer.from([0, 1, 2, 255]), Buffer.from(`sk-proj-${"Q".repeat(40)}`)]);
    const out = redactor.redact({ blob: bytes }, "p", []) as { blob: Record<string, unknown> };
    assert.deepEqual(out.blob, { type: "Buffer", bytes: bytes.byteLength, content: "[REDACTED:binary]" });
  });

  test("a password named in prose", () => {
    assert.equal(redactor.redactText("my password hunter2 stopped working"), "my password [REDACTED] stopped working");
    assert.equal(redactor.redactText("the password is Tr0ub4dor&3."), "the password is [REDACTED].");
    assert.equal(redactor.redactText("password must be 12 characters"), "password must be 12 characters");
  });

  test("a bracketed value leaves no stray bracket; an empty value stays empty", () => {
    assert.equal(redactor.redactText("password=[abc] next"), "password=[REDACTED] next");
    assert.equal(redactor.redactText("api_key=\nnext line"), "api_key=\nnext line");
    assert.equal(redactor.redactText("token="), "token=");
  });

  test("a bearer token outside an Authorization header", () => {
    const out = clean({ note: "curl -H 'X-Custom: Bearer abcDEF123456ghiJKL' https://api.example.com" });
    assert.ok(!out.includes("abcDEF123456ghiJKL"), out);
    assert.match(out, /\[REDACTED:bearer\]/);
  });

  test("secrets nested in several layers of JSON encoding", () => {
    let value: unknown = { token: "n3sted-T0ken-value" };
    for (let i = 0; i < 4; i++) value = JSON.stringify({ layer: i, inner: value });
    assert.ok(!clean({ value }).includes("n3sted-T0ken-value"));
  });

  test("escaped JSON inside a larger text", () => {
    const out = redactor.redactText('log line: {\\"password\\":\\"esc4ped-pass\\",\\"user\\":\\"bob\\"} end');
    assert.ok(!out.includes("esc4ped-pass"), out);
    assert.match(out, /bob/);
  });
  test("secrets beside characters beyond Latin-1 are found (the scan walks Latin-1 bytes)", () => {
    const token = `ghp_${"Zq3".repeat(12)}`;
    for (const text of [
      `日本語 ${token} 日本語`,
      `ключ: password=хунтер2 ✓`,
      `\u0100token: abc123def456\u0100`,
      `secret\u00a0key: s3cr3t-v4lue`,
      `🔑 Authorization: Bearer ${"x".repeat(24)} 🔑`,
    ]) {
      const out = redactor.redactText(text);
      assert.notEqual(out, text, `nothing redacted in ${text}`);
      for (const secret of [token, "хунтер2", "abc123def456", "s3cr3t-v4lue", "x".repeat(24)])
        assert.ok(!out.includes(secret), `${secret} leaked: ${out}`);
    }
  });
});
