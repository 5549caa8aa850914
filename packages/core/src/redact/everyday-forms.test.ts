import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Redactor } from "./redactor.js";

const redactor = new Redactor();
const r = (text: string) => redactor.redactText(text);
/** Redacted three ways: redact, redactToJson and the fast path (which must not pass what needs redacting). */
function everyPath(value: unknown): string[] {
  return [
    JSON.stringify(redactor.redact(value, "payload", [])),
    redactor.redactToJson(value, "payload", [])!,
    redactor.jsonIfClean(value) ?? redactor.redactToJson(value, "payload", [])!,
  ];
}

describe("command-line options", () => {
  test("--name=value, --name value and a quoted value are hidden for sensitive names", () => {
    assert.equal(r("mysql --user app --password=Zq8-hunter2 db"), "mysql --user app --password=[REDACTED] db");
    assert.equal(
      r("vault login --token s3cr3t-T0ken-value -method=token"),
      "vault login --token [REDACTED] -method=token",
    );
    assert.equal(r(`deploy --api-key "Ab12Cd34Ef56" --region eu`), `deploy --api-key "[REDACTED]" --region eu`);
  });

  test("options that only mention a sensitive word keep their value; so does a flag followed by a flag", () => {
    for (const text of [
      "vault login --token-file /run/secrets/vault",
      "docker login --password-stdin -u ci",
      "psql --no-password db",
      "tool --api-key-env SERVICE_KEY",
      "gh auth login --with-token --hostname x",
    ])
      assert.equal(r(text), text);
    assert.equal(r("tool --password --verbose"), "tool --password --verbose");
  });

  test("an argv array: the argument after a sensitive option is hidden, on every path", () => {
    const argv = {
      argv: ["node", "server.js", "--password", "Tr0ub4dor-argv-77", "--port", "8080", "-token", "t0k3n-value-9"],
    };
    for (const out of everyPath(argv)) {
      assert.ok(!out.includes("Tr0ub4dor-argv-77") && !out.includes("t0k3n-value-9"), out);
      assert.ok(out.includes('"8080"') && out.includes('"--port"'), out);
    }
    const paths: string[] = [];
    redactor.redact(argv, "payload", paths);
    assert.deepEqual(paths, ["payload.argv.3", "payload.argv.7"]);
  });

  test("curl -u user:password hides the password; uid:gid numbers and a bare user stay", () => {
    assert.equal(r("curl -u admin:Hunt3r2-pass https://ci"), "curl -u admin:[REDACTED:user_password] https://ci");
    assert.equal(
      r(`curl --user "deploy:Hunt3r2-pass" -X POST`),
      `curl --user "deploy:[REDACTED:user_password]" -X POST`,
    );
    for (const text of ["docker run -u 1000:1000 nginx", "git push -u origin main", "curl -u admin https://ci"])
      assert.equal(r(text), text);
  });
});

describe("URLs", () => {
  test("a password in the user info is hidden on any host, dotted or not", () => {
    for (const host of ["rabbit", "redis:6379", "gitlab", "db.internal:5432"]) {
      assert.equal(r(`amqp://guest:pw-Secret-1@${host}/x`), `amqp://guest:[REDACTED:url_password]@${host}/x`);
    }
    assert.equal(r("redis://:pw-Secret-1@redis:6379/0"), "redis://:[REDACTED:url_password]@redis:6379/0");
  });

  test("a user without a password, a port and a plain URL stay", () => {
    for (const text of [
      "https://deploy@git.example.com/app.git",
      "postgres://db:5432/orders",
      "http://localhost:3000/a?b=c",
    ])
      assert.equal(r(text), text);
  });

  test("signatures of signed URLs (Azure SAS sig=, X-Amz-Signature) are hidden, the other parameters stay", () => {
    assert.equal(
      r("https://a.blob.core.windows.net/f?sv=2022&sp=r&sig=AbC%2Bd3F%3D&se=2030"),
      "https://a.blob.core.windows.net/f?sv=2022&sp=r&sig=[REDACTED:url_signature]&se=2030",
    );
    assert.equal(
      r("https://b.s3.amazonaws.com/k?X-Amz-Expires=60&X-Amz-Signature=abc123def"),
      "https://b.s3.amazonaws.com/k?X-Amz-Expires=60&X-Amz-Signature=[REDACTED:url_signature]",
    );
  });
});

describe("config files", () => {
  test("XML elements and key/value attributes named like secrets", () => {
    assert.equal(
      r("<server><username>deploy</username><password>Pa55-word</password></server>"),
      "<server><username>deploy</username><password>[REDACTED]</password></server>",
    );
    assert.equal(
      r(`<add key="ClearTextPassword" value="Pa55-word" />`),
      `<add key="ClearTextPassword" value="[REDACTED]" />`,
    );
    assert.equal(r(`<add key="Theme" value="dark" />`), `<add key="Theme" value="dark" />`);
  });

  test("plural keys hide their values but not counts", () => {
    for (const out of everyPath({
      passwords: ["a-Secret-1"],
      apiKeys: { primary: "k3y-value-2" },
      tokens: ["t0k-3"],
      inputTokens: 128,
      outputTokens: "64",
      secrets: 2,
    })) {
      assert.ok(!/a-Secret-1|k3y-value-2|t0k-3/.test(out), out);
      assert.ok(
        out.includes('"inputTokens":128') && out.includes('"outputTokens":"64"') && out.includes('"secrets":2'),
        out,
      );
    }
    assert.equal(r("maxTokens=4096 inputTokens=1_000_000"), "maxTokens=4096 inputTokens=1_000_000");
    assert.equal(r(`{"tokens": ["t0k3n-in-text"]}`).includes("t0k3n-in-text"), false);
    assert.equal(r("secrets:\n  - s3cr3t-in-yaml\nname: app"), "secrets:\n  [REDACTED]\nname: app");
  });

  test("auth hides base64 credentials (Docker's auths.*.auth), not words or flags", () => {
    const auth = Buffer.from("deploy:Pa55-word").toString("base64");
    for (const out of everyPath({ auths: { "registry.example.com": { auth } }, oauth: { auth: "none" }, auth: true })) {
      assert.ok(!out.includes(auth), out);
      assert.ok(out.includes('"auth":"none"') && out.includes('"auth":true'), out);
    }
    assert.equal(r("auth: basic"), "auth: basic");
  });

  test("a version is not a secret (a dependency named like a key in a lockfile)", () => {
    assert.equal(r(`"cookie": "^0.7.2", "cookies": "~0.9.1"`), `"cookie": "^0.7.2", "cookies": "~0.9.1"`);
    assert.deepEqual(redactor.redact({ "node_modules/cookie": { version: "0.7.2" } }, "p", []), {
      "node_modules/cookie": { version: "0.7.2" },
    });
  });

  test("Basic credentials in free text are hidden; the word Basic in prose is not", () => {
    const basic = Buffer.from("svc:Pa55-word").toString("base64");
    assert.equal(r(`retrying with Basic ${basic} after 401`), "retrying with Basic [REDACTED:basic_auth] after 401");
    assert.equal(r("Basic usage: run the tool"), "Basic usage: run the tool");
  });
});

describe("secrets used as keys", () => {
  const token = `ghp_${"Zq3".repeat(12)}`;

  test("an object key or a Map key that is a secret is redacted like text, on every path, and its path names the redacted key", () => {
    for (const value of [{ [token]: { scopes: ["repo"] } }, new Map([[token, { scopes: ["repo"] }]])]) {
      for (const out of everyPath({ grants: value }))
        assert.ok(!out.includes(token) && out.includes("[REDACTED:github]") && out.includes("repo"), out);
      const paths: string[] = [];
      redactor.redact({ grants: value }, "payload", paths);
      assert.deepEqual(paths, ["payload.grants.[REDACTED:github]"]);
    }
  });

  test("two secret keys that redact alike stay two keys", () => {
    const other = `ghp_${"Yx7".repeat(12)}`;
    for (const out of everyPath({ [token]: 1, [other]: 2 }))
      assert.deepEqual(JSON.parse(out), { "[REDACTED:github]": 1, "[REDACTED:github] (2)": 2 });
  });
});

describe("binary serialized before redaction", () => {
  test("a Buffer already turned into {type, data} inside a string is read as its text", () => {
    const text = JSON.stringify({ content: Buffer.from("api_key=Zq8wLm3pQ7rT\nok") });
    const out = r(text);
    assert.ok(!out.includes("Zq8wLm3pQ7rT") && !out.includes('"data":['), out);
  });
});
