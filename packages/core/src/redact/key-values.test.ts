// Values of sensitive keys inside text (`keyValueSpans`): each form of key (`key: v`, options,
// XML, attribute pairs, prose), where a value starts and ends, and which keys and values stay.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { KeyNames } from "./key-names.js";
import { keyValueSpans } from "./key-values.js";
import { DEFAULT_SENSITIVE_KEYS } from "./rules.js";

const names = new KeyNames(DEFAULT_SENSITIVE_KEYS);
const kindOf = (key: string) => names.kindOf(key);

/** The values found, as the text each covers (each inside the text). */
const values = (text: string, near?: number[]) =>
  keyValueSpans(text, kindOf, near).map((s) => {
    assert.ok(0 <= s.start && s.start < s.end && s.end <= text.length, JSON.stringify(s));
    return text.slice(s.start, s.end);
  });
/** The values found with the name each is reported under. */
const named = (text: string) => keyValueSpans(text, kindOf).map((s) => [s.name, text.slice(s.start, s.end)]);

describe("key: value and key=value", () => {
  test("`:` and `=`, with or without spaces, tabs or no-break spaces around them", () => {
    for (const text of ["db_password: Zq8-hunter2", "db_password=Zq8-hunter2", "db_password = Zq8-hunter2", "db_password\t:\tZq8-hunter2", "db_password\u00a0=\u00a0Zq8-hunter2"]) {
      assert.deepEqual(values(text), ["Zq8-hunter2"], JSON.stringify(text));
    }
  });

  test("a key at the start, in the middle and at the end of a line of text", () => {
    assert.deepEqual(values("token=t0k-1 user=ann"), ["t0k-1 user=ann"]);
    assert.deepEqual(values("user=ann token=t0k-1"), ["t0k-1"]);
    assert.deepEqual(values("user=ann\ntoken=t0k-1\nnext: 2"), ["t0k-1"]);
  });

  test("a line break between key and separator, or a key inside a word or a path, is no key", () => {
    for (const text of ["db_password\n: hunter2x", "x/db_password: hunter2x", "cfg/db_password=hunter2x"]) assert.deepEqual(values(text), [], JSON.stringify(text));
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
    assert.deepEqual(named("the old db credential: Zq8-hunter2"), [["credential", "Zq8-hunter2"]], "four words: the last three make the key");
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
    assert.deepEqual(named('password: "token: Zq8", secret: "x9"'), [["password", "token: Zq8"], ["secret", "x9"]]);
  });
});

describe("where an unquoted value ends", () => {
  test("at the end of the line (LF or CRLF), trailing spaces dropped", () => {
    assert.deepEqual(values("password: Zq8 hunter2  \r\nnext: 1"), ["Zq8 hunter2"]);
    assert.deepEqual(values("password: Zq8 hunter2\rnext"), ["Zq8 hunter2"]);
  });

  test("at a quote or a backslash (the end of the enclosing string, an escaped line break)", () => {
    assert.deepEqual(values('{"note": "password=Zq8-hunter2", "x": 1}'), ["Zq8-hunter2"]);
    assert.deepEqual(values('"password=Zq8-hunter2\\nuser=ann"'), ["Zq8-hunter2"]);
  });

  test("after a quoted key, at a comma, a closing brace or bracket, or a space", () => {
    assert.deepEqual(values('{"token": 8f3k29ab, "n": 1}'), ["8f3k29ab"]);
    assert.deepEqual(values('{"token": 8f3k29ab}'), ["8f3k29ab"]);
    assert.deepEqual(values("['token': 8f3k29ab]"), ["8f3k29ab"]);
    assert.deepEqual(values('"token": 8f3k29ab tail'), ["8f3k29ab"]);
    assert.deepEqual(values("token: 8f3k, 29ab} tail"), ["8f3k, 29ab} tail"], "an unquoted key takes the whole line");
  });

  test("in a URL query (after `?` or `&`), at `&`, `#` or a space", () => {
    assert.deepEqual(values("GET /cb?token=8f3k29ab&state=1"), ["8f3k29ab"]);
    assert.deepEqual(values("GET /cb?state=1&token=8f3k29ab#top"), ["8f3k29ab"]);
    assert.deepEqual(values("GET /cb?token=8f3k29ab HTTP/1.1"), ["8f3k29ab"]);
    assert.deepEqual(values("token=8f3k29ab&state=1"), ["8f3k29ab&state=1"], "not after ? or &: the whole line");
    assert.deepEqual(values("x token=8f3k29ab&state=1 #2"), ["8f3k29ab&state=1 #2"]);
  });
});

describe("quoted values", () => {
  test("double and single quotes: the inside, the quotes kept", () => {
    assert.deepEqual(values('password: "Zq8 hunter2", user: ann'), ["Zq8 hunter2"]);
    assert.deepEqual(values("password = 'Zq8 hunter2' # note"), ["Zq8 hunter2"]);
    assert.deepEqual(values('{"password":"Zq8-hunter2"}'), ["Zq8-hunter2"]);
  });

  test("a quote not at the value's start does not open it", () => {
    assert.deepEqual(values('password: Zq8 "hunter2"'), ["Zq8"]);
  });

  test("JSON inside a string: the closing quote has as many backslashes as the opening one", () => {
    assert.deepEqual(values('"{\\"password\\":\\"Zq8-hunter2\\"}"'), ["Zq8-hunter2"]);
    assert.deepEqual(values('{\\"password\\":\\"Zq8\\\\\\"inner\\"}'), ['Zq8\\\\\\"inner']);
    assert.deepEqual(values('{\\\\\\"password\\\\\\":\\\\\\"Zq8-hunter2\\\\\\"}'), ["Zq8-hunter2"]);
  });

  test("an empty value in JSON inside a string closes at once: the next key's value is not taken", () => {
    assert.deepEqual(values('{\\"password\\":\\"\\",\\"user\\":\\"ann\\"}'), []);
  });

  test("an unclosed quote runs to the end of its line or of the text", () => {
    assert.deepEqual(values('password: "Zq8 hunter2\nnext: 1'), ["Zq8 hunter2"]);
    assert.deepEqual(values('password: "Zq8 hunter2\r\nnext: 1'), ["Zq8 hunter2"]);
    assert.deepEqual(values('password: "Zq8 hunter2'), ["Zq8 hunter2"]);
  });
});

describe("bracketed values", () => {
  test("the whole bracket, nesting counted: [ ], ( ), { }, < >", () => {
    assert.deepEqual(values("tokens: [a1, [b2]] rest"), ["[a1, [b2]]"]);
    assert.deepEqual(values("secret=(x, (y)) rest"), ["(x, (y))"]);
    assert.deepEqual(values("credentials: {u: {p: 1}} rest"), ["{u: {p: 1}}"]);
    assert.deepEqual(values("password: <Zq8-hunter2> rest"), ["<Zq8-hunter2>"]);
  });

  test("an unclosed bracket on one line runs to the end of the line or text", () => {
    assert.deepEqual(values("password: [Zq8, hunter2\nnext: 1"), ["[Zq8, hunter2"]);
    assert.deepEqual(values("password: [Zq8, hunter2\r\nnext: 1"), ["[Zq8, hunter2"]);
    assert.deepEqual(values("password: [Zq8, hunter2"), ["[Zq8, hunter2"]);
  });

  test("a bracket that ends its line opens a block: up to its closing bracket, strings skipped", () => {
    const block = '{\n  "user": "ann",\n  "key": "a}b\\"}",\n  "n": {"d": 1}\n}';
    assert.deepEqual(values(`"credentials": ${block}\n"next": 1`), [block]);
    assert.deepEqual(values(`"credentials": [ \r\n  "a]",\r\n  "b"\r\n] tail`), ['[ \r\n  "a]",\r\n  "b"\r\n]']);
    assert.deepEqual(values(`"credentials": {\n  "a": 1`), ['{\n  "a": 1'], "unclosed: to the end of the text");
    assert.deepEqual(values(`"credentials": {\n  "a": "Zq8`), ['{\n  "a": "Zq8'], "a string unclosed too");
  });
});

describe("a YAML key whose value is on the lines below", () => {
  test("the lines indented deeper than the key", () => {
    assert.deepEqual(values("secrets:\n  - Zq8\n  - hunter2\nnext: 1"), ["- Zq8\n  - hunter2"]);
    assert.deepEqual(values("  password:\n    Zq8-hunter2\n  user: ann"), ["Zq8-hunter2"]);
  });

  test("a list at the key's own indentation belongs to it; another key there does not", () => {
    assert.deepEqual(values("secrets:\n- Zq8\n- hunter2\nnext: 1"), ["- Zq8\n- hunter2"]);
    assert.deepEqual(values("secrets:\n-Zq8\nnext: 1"), []);
    assert.deepEqual(values("password:\nuser: ann"), []);
  });

  test("blank lines inside the block are skipped; a line less indented ends it", () => {
    assert.deepEqual(values("secrets:\n  - Zq8\n\n  - hunter2\nnext: 1"), ["- Zq8\n\n  - hunter2"]);
    assert.deepEqual(values("  secrets:\n    - Zq8\n - x\n    - y"), ["- Zq8"]);
  });

  test("a block that runs to the end of the text", () => {
    assert.deepEqual(values("secrets:\n  - Zq8\n  - hunter2"), ["- Zq8\n  - hunter2"]);
  });

  test("one space of indentation is deeper", () => {
    assert.deepEqual(values("secrets:\n x1\nnext: 1"), ["x1"]);
  });

  test("a line of spaces only neither ends the block nor belongs to its end", () => {
    assert.deepEqual(values("  secrets:\n    - Zq8\n \n    - hunter2\n  next: 1"), ["- Zq8\n \n    - hunter2"]);
    assert.deepEqual(values("secrets:\n  - Zq8\n   \nnext: 1"), ["- Zq8"]);
  });

  test("at the key's indentation only a list item (`- `) belongs to it", () => {
    assert.deepEqual(values("  secrets:\n  - Zq8\n  - hunter2\n  next: 1"), ["- Zq8\n  - hunter2"]);
    assert.deepEqual(values("secrets:\na b\nnext: 1"), []);
  });

  test("found from a key offset on the key's line (`near`)", () => {
    const text = "user: ann\nsecrets:\n  - Zq8\nnext: 1";
    assert.deepEqual(values(text, [text.indexOf(":", 10)]), ["- Zq8"]);
  });

  test("CRLF line ends", () => {
    assert.deepEqual(values("secrets:\r\n  - Zq8\r\n  - hunter2\r\nnext: 1"), ["- Zq8\r\n  - hunter2"]);
  });

  test("tabs indent too", () => {
    assert.deepEqual(values("secrets:\n\t- Zq8\nnext: 1"), ["- Zq8"]);
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
    for (const text of ["psql --no-password db", "tool --password --verbose", "tool -password Zq8", "tool x--password Zq8", "tool --user ann"]) {
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
    assert.deepEqual(named('<add key="ClearTextPassword" value="Zq8-hunter2" />'), [["ClearTextPassword", "Zq8-hunter2"]]);
    assert.deepEqual(named("<add key='ApiToken' value='Zq8-hunter2'/>"), [["ApiToken", "Zq8-hunter2"]]);
    assert.deepEqual(values('<add key="ApiToken"  \tvalue="Zq8-hunter2"/>'), ["Zq8-hunter2"], "spaces and tabs between");
    assert.deepEqual(values('<add key="Username" value="ann" />'), []);
  });
});

describe("a secret named in prose", () => {
  test("after the keyword, with is / was / = / : or nothing between", () => {
    for (const text of ["the password hunter2x works", "the token is 8f3k29ab", "the token is  8f3k29ab", "my passwd was Zq8-hunter2", "pwd  Zq8-hunter2", "passphrase\tZq8-hunter2"]) {
      assert.equal(keyValueSpans(text, () => 0).length, 1, text);
    }
    const text = "the token is 8f3k29ab.";
    const [span] = keyValueSpans(text, () => 0);
    assert.ok(span);
    assert.deepEqual([span.name, text.slice(span.start, span.end), span.anchor], ["token", "8f3k29ab", 4]);
  });

  test("api key spelt apikey, api key, api_key, api-key; the replacement named by its first word", () => {
    for (const [keyword, name] of [["apikey", "apikey"], ["api key", "api"], ["api_key", "api_key"], ["API-Key", "API-Key"]]) {
      const spans = keyValueSpans(`my ${keyword} Zq8hunter2x now`, () => 0);
      assert.deepEqual(spans.map((s) => s.name), [name], keyword);
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
