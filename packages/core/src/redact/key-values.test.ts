// Values of sensitive keys inside text (`keyValueSpans`), by the form of the key: `key: v` and
// `key=v`, command-line options, XML elements and attribute pairs, prose; and which keys and
// values stay.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { named, values } from "../test-support/key-values.js";
import { keyValueSpans } from "./key-values.js";

describe("key: value and key=value", () => {
  test("`:` and `=`, with or without spaces, tabs or no-break spaces around them", () => {
    for (const text of [
      "db_password: Zq8-hunter2",
      "db_password=Zq8-hunter2",
      "db_password = Zq8-hunter2",
      "db_password\t:\tZq8-hunter2",
      "db_password\u00a0=\u00a0Zq8-hunter2",
    ]) {
      assert.deepEqual(values(text), ["Zq8-hunter2"], JSON.stringify(text));
    }
  });

  test("a key at the start, in the middle and at the end of a line of text", () => {
    assert.deepEqual(values("token=t0k-1 user=ann"), ["t0k-1 user=ann"]);
    assert.deepEqual(values("user=ann token=t0k-1"), ["t0k-1"]);
    assert.deepEqual(values("user=ann\ntoken=t0k-1\nnext: 2"), ["t0k-1"]);
  });

  test("a line break between key and separator, or a key inside a word or a path, is no key", () => {
    for (const text of ["db_password\n: hunter2x", "x/db_password: hunter2x", "cfg/db_password=hunter2x"])
      assert.deepEqual(values(text), [], JSON.stringify(text));
    assert.deepEqual(values("old-db_password: hunter2x"), ["hunter2x"], "the whole word is the key");
  });

  test("keys of up to 64 characters, not 65", () => {
    const key64 = `${"a".repeat(53)}db_password`;
    assert.equal(key64.length, 64);
    assert.deepEqual(values(`${key64}: hunter2x`), ["hunter2x"]);
    assert.deepEqual(values(`a${key64}: hunter2x`), []);
  });

  test("up to three words, the replacement named by the fewest last words still sensitive", () => {
    assert.deepEqual(named("my signing key: Zq8-hunter2"), [["signing key", "Zq8-hunter2"]]);
    assert.deepEqual(named("db admin credential = Zq8-hunter2"), [["credential", "Zq8-hunter2"]]);
    assert.deepEqual(
      named("the old db credential: Zq8-hunter2"),
      [["credential", "Zq8-hunter2"]],
      "four words: the last three make the key",
    );
    assert.deepEqual(named("my\u00a0signing\u00a0key: Zq8-hunter2"), [["signing\u00a0key", "Zq8-hunter2"]]);
    assert.deepEqual(named("Db_Password: Zq8-hunter2"), [["Db_Password", "Zq8-hunter2"]]);
  });

  test("keys that are not sensitive, and the empty value, give nothing", () => {
    assert.deepEqual(values("user: ann\nname=x\nhost = db"), []);
    assert.deepEqual(values("password:\nuser: ann"), []);
    assert.deepEqual(values('password: ""'), []);
  });

  test("a plural key hides values but counts", () => {
    assert.deepEqual(values("passwords: [Zq8, hunter2]"), ["[Zq8, hunter2]"]);
    assert.deepEqual(values("inputTokens: 128"), []);
    assert.deepEqual(values("usage inputTokens: 128, outputTokens: 7"), []);
  });

  test("a value is not scanned again for keys: one span for `password: token=x`", () => {
    assert.deepEqual(named("password: token=Zq8 secret=x"), [["password", "token=Zq8 secret=x"]]);
    assert.deepEqual(named('password: "token: Zq8", secret: "x9"'), [
      ["password", "token: Zq8"],
      ["secret", "x9"],
    ]);
  });
});

describe("command-line options", () => {
  test("--name=value, --name value, quoted values (inside only)", () => {
    assert.deepEqual(named("mysql --password=Zq8-hunter2 db"), [["password", "Zq8-hunter2"]]);
    assert.deepEqual(named("curl --cookie  t0k3n-9 -x"), [["cookie", "t0k3n-9"]]);
    assert.deepEqual(named(`deploy --api-key "Ab12 Cd34" --region eu`), [["api-key", "Ab12 Cd34"]]);
    assert.deepEqual(named("deploy --api-key 'Ab12 Cd34' x"), [["api-key", "Ab12 Cd34"]]);
  });

  test("a negated option, a flag after the option, a single dash or a dash before: no value", () => {
    for (const text of [
      "psql --no-password db",
      "tool --password --verbose",
      "tool -password Zq8",
      "tool x--password Zq8",
      "tool --user ann",
    ]) {
      assert.deepEqual(values(text), [], text);
    }
  });
});

describe("XML elements and attribute pairs", () => {
  test("<password>v</password>, attributes allowed, the closing tag must match", () => {
    assert.deepEqual(named("<cfg><password>Zq8-hunter2</password></cfg>"), [["password", "Zq8-hunter2"]]);
    assert.deepEqual(named('<apiKey type="x">Zq8-hunter2</apiKey>'), [["apiKey", "Zq8-hunter2"]]);
    assert.deepEqual(values("<password>Zq8-hunter2</user>"), []);
    assert.deepEqual(values("<user>ann</user>"), []);
  });

  test('key="..." value="..." with either quote; the value\'s inside only', () => {
    assert.deepEqual(named('<add key="ClearTextPassword" value="Zq8-hunter2" />'), [
      ["ClearTextPassword", "Zq8-hunter2"],
    ]);
    assert.deepEqual(named("<add key='ApiToken' value='Zq8-hunter2'/>"), [["ApiToken", "Zq8-hunter2"]]);
    assert.deepEqual(
      values('<add key="ApiToken"  \tvalue="Zq8-hunter2"/>'),
      ["Zq8-hunter2"],
      "spaces and tabs between",
    );
    assert.deepEqual(values('<add key="Username" value="ann" />'), []);
  });
});

describe("a secret named in prose", () => {
  test("after the keyword, with is / was / = / : or nothing between", () => {
    for (const text of [
      "the password hunter2x works",
      "the token is 8f3k29ab",
      "the token is  8f3k29ab",
      "my passwd was Zq8-hunter2",
      "pwd  Zq8-hunter2",
      "passphrase\tZq8-hunter2",
    ]) {
      assert.equal(keyValueSpans(text, () => 0).length, 1, text);
    }
    const text = "the token is 8f3k29ab.";
    const [span] = keyValueSpans(text, () => 0);
    assert.ok(span);
    assert.deepEqual([span.name, text.slice(span.start, span.end), span.anchor], ["token", "8f3k29ab", 4]);
  });

  test("api key spelt apikey, api key, api_key, api-key; the replacement named by its first word", () => {
    for (const [keyword, name] of [
      ["apikey", "apikey"],
      ["api key", "api"],
      ["api_key", "api_key"],
      ["API-Key", "API-Key"],
    ]) {
      const spans = keyValueSpans(`my ${keyword} Zq8hunter2x now`, () => 0);
      assert.deepEqual(
        spans.map((s) => s.name),
        [name],
        keyword,
      );
    }
  });

  test("trailing punctuation is not part of the secret", () => {
    const text = "password hunter2x!).";
    const [span] = keyValueSpans(text, () => 0);
    assert.ok(span);
    assert.equal(text.slice(span.start, span.end), "hunter2x");
    const inner = "password hunter..2x, then";
    const [kept] = keyValueSpans(inner, () => 0);
    assert.ok(kept);
    assert.equal(inner.slice(kept.start, kept.end), "hunter..2x", "punctuation inside stays");
  });

  test("a word after the keyword is no secret; digits, symbols, inner capitals or 16 characters make one", () => {
    const found = (value: string) => keyValueSpans(`password ${value}`, () => 0).length === 1;
    assert.equal(found("Monday"), false, "a word");
    assert.equal(found("abcdefghijklmno"), false, "15 letters");
    assert.equal(found("abcdefghijklmnop"), true, "16 letters");
    assert.equal(found("abcde1"), true, "6 with a digit");
    assert.equal(found("abcd1"), false, "5 with a digit");
    assert.equal(found("abc-de"), true, "6 with a symbol");
    assert.equal(found("abcDef"), true, "6 with an inner capital");
    assert.equal(found("Abcdef"), false, "6 with a leading capital only");
    assert.equal(found("--verbose"), false, "an option");
  });
});
