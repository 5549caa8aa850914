// Credentials in command lines and URLs: what counts as Basic credentials, and the edges of
// `curl -u`, `Basic <token>` and signed-URL forms.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isBasicCredential } from "./credential-forms.js";
import { Redactor } from "./redactor.js";

const r = (text: string) => new Redactor().redactText(text);
const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("isBasicCredential: base64 of printable user:password", () => {
  test("a user and a password, or a password alone, are credentials", () => {
    assert.equal(isBasicCredential(b64("u:pass")), true);
    assert.equal(isBasicCredential(b64(":pw-secret")), true, "the user may be empty");
  });

  test("no colon, an empty password or an unprintable byte anywhere is not", () => {
    assert.equal(isBasicCredential(b64("nocolonhere")), false);
    assert.equal(isBasicCredential(b64("deploy-user:")), false);
    for (const text of ["u:pa\u0001ss", "\u0001u:pass", "u:pass\u0001"])
      assert.equal(isBasicCredential(b64(text)), false, JSON.stringify(text));
  });

  test("8 to 1024 characters of base64 and padding, nothing else", () => {
    assert.equal(isBasicCredential(b64("u:pass").slice(0, 7)), false, "7 characters");
    assert.equal(isBasicCredential(b64("u:pass")), true, "8 characters");
    const longest = b64(`u:${"p".repeat(766)}`);
    assert.equal(longest.length, 1024);
    assert.equal(isBasicCredential(longest), true);
    assert.equal(isBasicCredential(`${longest}A`), false, "1025 characters");
    assert.equal(isBasicCredential(`@@${b64("u:pass")}`), false);
    assert.equal(isBasicCredential(`${b64("u:pass")}!!`), false);
  });
});

describe("credential forms in text", () => {
  test("curl -u with more than one blank before its argument", () => {
    assert.equal(r("curl -u  admin:Hunt3r2-pass https://ci"), "curl -u  admin:[REDACTED:user_password] https://ci");
  });

  test("-u numbers are a uid:gid only when both sides are all digits", () => {
    for (const text of ["docker run -u 0:0 img", `docker run -u "1000:1000" img`, "docker run --user=1000:1000 img"])
      assert.equal(r(text), text);
    assert.equal(r("curl -u svc1:2024 https://ci"), "curl -u svc1:[REDACTED:user_password] https://ci");
    assert.equal(r("curl -u 12:34abcdef https://ci"), "curl -u 12:[REDACTED:user_password] https://ci");
  });

  test("Basic credentials are taken whole: with padding, after more than one blank, before more text", () => {
    // Every shorter prefix of this token decodes to text without a password: only the whole token is a credential.
    const token = b64("buildbot-7:Q");
    assert.equal(r(`auth Basic ${token} then`), "auth Basic [REDACTED:basic_auth] then");
    assert.equal(r(`Basic  ${b64("u:pass1")}`), "Basic  [REDACTED:basic_auth]");
  });

  test("a Google signed URL's credential parameter is a shape, found without a sensitive key of that name", () => {
    const fewKeys = new Redactor({ keys: ["password"] });
    assert.equal(
      fewKeys.redactText(
        "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4&X-Goog-Credential=svc%40p.iam&X-Goog-Date=1",
      ),
      "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4&X-Goog-Credential=[REDACTED:url_signature]&X-Goog-Date=1",
    );
  });
});
