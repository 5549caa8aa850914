import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { cutForModel, cutPoint } from "../tools/truncate.js";
import { mergeSecretSpans } from "./cuts.js";
import { Redactor } from "./redactor.js";

const redactor = new Redactor();
const token = `ghp_${"Zq3".repeat(12)}`;

describe("a cut keeps whole tokens", () => {
  test("a cut inside a token moves back to its start; a cut between tokens stays", () => {
    const text = `see ${token} now`;
    for (let at = 5; at < 4 + token.length; at++) assert.equal(cutPoint(text, at), 4, `at ${at}`);
    assert.equal(cutPoint(text, 4), 4);
    assert.equal(cutPoint(text, 4 + token.length), 4 + token.length);
    assert.equal(cutPoint(text, 100), text.length);
  });

  test("a text that starts with a token cut short keeps nothing of it; a blob longer than a key is cut where asked", () => {
    assert.equal(cutPoint(token, 20), 0);
    const blob = "A".repeat(5000);
    assert.equal(cutPoint(blob, 1000), 1000);
  });

  test("never half a surrogate pair", () => {
    assert.equal(cutPoint("ab 😀 cd", 4), 3);
  });

  test("cutForModel shows no piece of a token it cuts, and says what it showed", () => {
    const content = `x ${token} ${"y ".repeat(100)}`;
    const out = cutForModel(content, 20);
    assert.ok(!out.includes("ghp_Zq3"), out);
    assert.match(out, /showing the first 2 of \d+ characters/);
  });
});

describe("a cut from the middle of a text: what it cuts off from its context is redacted in it", () => {
  const pem = generateKeyPairSync("ec", {
    namedCurve: "P-256",
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "sec1", format: "pem" },
  }).privateKey;

  test("a value whose key the cut leaves out is replaced; with its key it stays for the sink", () => {
    const text = "user=app\npassword=Hunter2-Secret\nport=5432";
    const at = text.indexOf("Hunter2");
    assert.equal(redactor.redactCut(text, at, text.length), "[REDACTED]\nport=5432");
    assert.equal(redactor.redactCut(text, 0, text.length), text, "whole, with its key: the sink redacts it");
  });

  test("a token the cut splits is replaced, at either end", () => {
    const text = `a ${token} b`;
    assert.equal(redactor.redactCut(text, 10, text.length), "[REDACTED:github] b");
    assert.equal(redactor.redactCut(text, 0, 12), "a [REDACTED:github]");
  });

  test("key lines without their BEGIN line are replaced even when too few to be recognized alone", () => {
    const text = `before\n${pem}after`;
    const lines = pem.split("\n");
    const from = text.indexOf(lines[1]);
    const cut = redactor.redactCut(text, from, from + lines[1].length + 1 + lines[2].length);
    assert.ok(!cut.includes(lines[1].slice(0, 20)) && !cut.includes(lines[2].slice(0, 20)), cut);
    assert.equal(
      redactor.redactText(lines.slice(1, 3).join("\n")),
      lines.slice(1, 3).join("\n"),
      "alone, two lines are not recognized",
    );
  });

  test("a pretty-printed object under a sensitive key is the key's value, all its lines", () => {
    const text = JSON.stringify({ apiKeys: { primary: "k3y-value-1", backup: "k3y-value-2" }, name: "app" }, null, 2);
    const out = redactor.redactText(`response:\n${text}`);
    assert.ok(!out.includes("k3y-value") && out.includes('"name": "app"'), out);
  });

  test("a policy that is off leaves every cut as it is", () => {
    const off = new Redactor(false);
    assert.equal(off.redactCut(`a ${token} b`, 10, 20), `a ${token} b`.slice(10, 20));
  });
});

describe("secret spans: in order, overlapping ones merged", () => {
  test("a key's value found before a shape later in the text comes first, each span whole", () => {
    const text = `password=hunter2x\nsee ${token}`;
    const at = text.indexOf(token);
    assert.deepEqual(redactor.secretSpans(text), [
      { start: 9, end: 17, name: "password", anchor: 0, keyed: true },
      { start: at, end: at + token.length, name: "github", anchor: at, keyed: false },
    ]);
  });

  test("two findings from one place are one span: the longer one names it, from the earlier anchor to the farther end", () => {
    const text = `password=${token} rest`;
    assert.deepEqual(redactor.secretSpans(text), [
      { start: 9, end: text.length, name: "password", anchor: 0, keyed: true },
    ]);
  });

  test("spans that only touch stay two; unordered ones come out in order", () => {
    const span = (start: number, end: number, name: string, anchor = start) => ({
      start,
      end,
      name,
      anchor,
      keyed: false,
    });
    assert.deepEqual(mergeSecretSpans([span(10, 20, "b"), span(0, 10, "a")]), [span(0, 10, "a"), span(10, 20, "b")]);
    assert.deepEqual(mergeSecretSpans([span(5, 9, "later", 1), span(0, 6, "first", 0), span(30, 40, "far")]), [
      span(0, 9, "first", 0),
      span(30, 40, "far"),
    ]);
    assert.deepEqual(mergeSecretSpans([span(2, 12, "inner", 2), span(4, 8, "within", 0)]), [span(2, 12, "inner", 0)]);
  });
});

describe("a cut's bounds: a secret outside it or whole inside it is left to the sink", () => {
  const text = "user=app\npassword=Hunter2-Secret\nport=5432";
  const key = text.indexOf("password");
  const value = text.indexOf("Hunter2");
  const valueEnd = value + "Hunter2-Secret".length;

  test("a cut that starts where a secret ends, or ends where one starts, shows no replacement", () => {
    assert.equal(redactor.redactCut(text, valueEnd, text.length), "\nport=5432");
    assert.equal(redactor.redactCut(text, 0, value), "user=app\npassword=");
    assert.equal(redactor.redactCut(text, valueEnd + 1, text.length), "port=5432");
  });

  test("a cut from a key's first character to its value's last keeps the pair for the sink", () => {
    assert.equal(redactor.redactCut(text, key, valueEnd), "password=Hunter2-Secret");
    assert.equal(redactor.redactCut(text, key, valueEnd - 1), "password=[REDACTED]");
    assert.equal(redactor.redactCut(text, key + 1, valueEnd), "assword=[REDACTED]");
  });

  test("a replacement gets the part of the secret inside the cut, not more", () => {
    const echo = new Redactor(undefined, {
      shape: (name, found) => `<${name}:${found}>`,
      key: (name, found) => `<${name}:${found}>`,
    });
    const line = `a ${token} b`;
    assert.equal(echo.redactCut(line, 10, line.length), `<github:${token.slice(8)}> b`);
    assert.equal(echo.redactCut(text, value + 3, text.length), "<password:ter2-Secret>\nport=5432");
  });
});
