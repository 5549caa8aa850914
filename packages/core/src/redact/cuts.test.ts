import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { cutForModel, cutPoint } from "../tools/truncate.js";
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
  const pem = generateKeyPairSync("ec", { namedCurve: "P-256", publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "sec1", format: "pem" } }).privateKey;

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
    assert.equal(redactor.redactString(lines.slice(1, 3).join("\n")), lines.slice(1, 3).join("\n"), "alone, two lines are not recognized");
  });

  test("a pretty-printed object under a sensitive key is the key's value, all its lines", () => {
    const text = JSON.stringify({ apiKeys: { primary: "k3y-value-1", backup: "k3y-value-2" }, name: "app" }, null, 2);
    const out = redactor.redactString(`response:\n${text}`);
    assert.ok(!out.includes("k3y-value") && out.includes('"name": "app"'), out);
  });

  test("a policy that is off leaves every cut as it is", () => {
    const off = new Redactor(false);
    assert.equal(off.redactCut(`a ${token} b`, 10, 20), `a ${token} b`.slice(10, 20));
  });
});
