// Where the value of a sensitive key ends (`keyValueSpans`): an unquoted value, a quoted one
// (JSON inside a string included), a bracketed one, and a YAML block on the lines below its key.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { values } from "../test-support/key-values.js";

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
