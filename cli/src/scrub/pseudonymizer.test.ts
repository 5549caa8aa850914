import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pseudonymizer } from "./pseudonymizer.js";
import { DEFAULT_SCRUB_RULES, loadScrubRules } from "./rules.js";

describe("the same original value always gets the same pseudonym", () => {
  test("emails across strings and objects: <email-1>, <email-2> in order of first sight", () => {
    const p = new Pseudonymizer(DEFAULT_SCRUB_RULES);
    const out = p.scrubValue({
      to: "bob@example.org",
      body: "cc alice@example.com and bob@example.org",
      list: ["alice@example.com"],
    });
    assert.deepEqual(out, { to: "<email-1>", body: "cc <email-2> and <email-1>", list: ["<email-2>"] });
    assert.deepEqual(p.mapping(), { "<email-1>": "bob@example.org", "<email-2>": "alice@example.com" });
    assert.deepEqual(p.stats(), { replaced: { email: 4 }, distinct: 2 });
  });
  test("sensitive keys are replaced whole, named after the key; the input is not changed", () => {
    const p = new Pseudonymizer(DEFAULT_SCRUB_RULES);
    const input = { headers: { Authorization: "Basic abc", "x-api-key": "k1" }, other: "Basic abc" };
    const out = p.scrubValue(input) as { headers: Record<string, string>; other: string };
    assert.equal(out.headers.Authorization, "<authorization-1>");
    assert.equal(out.headers["x-api-key"], "<x-api-key-1>");
    assert.equal(out.other, "Basic abc", "a key rule does not touch the same text elsewhere");
    assert.equal(input.headers.Authorization, "Basic abc");
  });
  test("a pseudonym is named by the key, never by a secret written just before it", () => {
    const p = new Pseudonymizer(DEFAULT_SCRUB_RULES);
    const out = p.scrubString("the password Tr0ub4dor99 api_key: zzz-value");
    assert.equal(out, "the password <password-1> api_key: <api_key-1>");
    assert.ok(!out.toLowerCase().includes("tr0ub4dor99"), out);
  });
  test("card numbers need a valid checksum: timestamps and ids stay", () => {
    const p = new Pseudonymizer(DEFAULT_SCRUB_RULES);
    assert.equal(p.scrubString("card 4111 1111 1111 1111 at 1732900000000"), "card <card-1> at 1732900000000");
  });
  test("pseudonyms already placed are not scrubbed again", () => {
    const p = new Pseudonymizer({
      keys: [],
      patterns: [{ name: "tag", regex: "<[a-z]+-\\d+>" }],
      kinds: [],
      defaults: false,
    });
    assert.equal(p.scrubString("see <email-1>"), "see <email-1>");
  });
  test("removed kinds", () => {
    const p = new Pseudonymizer({ ...DEFAULT_SCRUB_RULES, kinds: ["llm_request"] });
    assert.equal(p.dropsKind("llm_request"), true);
    assert.equal(p.dropsKind("llm_response"), false);
    assert.equal(p.removedPayload("llm_request"), "<removed:llm_request>");
  });
});

describe("rules files are validated and merged with the defaults", () => {
  const dir = mkdtempSync(join(tmpdir(), "scrub-rules-"));
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
    return path;
  };
  test("own patterns are added; replaceDefaults drops the defaults", () => {
    const merged = loadScrubRules(
      write("a.json", { patterns: [{ name: "cust", regex: "CUST-\\d+" }], keys: ["plan"] }),
    );
    assert.ok(
      merged.defaults &&
        merged.patterns.some((p) => p.name === "ipv4") &&
        merged.patterns.some((p) => p.name === "cust"),
    );
    assert.ok(merged.keys.includes("plan"));
    const own = loadScrubRules(write("b.json", { replaceDefaults: true, kinds: ["custom"] }));
    assert.deepEqual(own, { keys: [], patterns: [], kinds: ["custom"], defaults: false });
    assert.equal(
      new Pseudonymizer(own).scrubString("mail bob@example.org"),
      "mail bob@example.org",
      "without defaults only the file's rules apply",
    );
  });
  test("bad files are refused with the reason", () => {
    assert.throws(() => loadScrubRules(join(dir, "missing.json")), /does not exist/);
    assert.throws(() => loadScrubRules(write("c.json", "{nope")), /not valid JSON/);
    assert.throws(
      () => loadScrubRules(write("d.json", { patterns: [{ name: "x", regex: "(" }] })),
      /not a valid regular expression/,
    );
    assert.throws(() => loadScrubRules(write("e.json", { keyz: [] })), /unknown field "keyz"/);
    assert.throws(
      () => loadScrubRules(write("f.json", { keys: [""] })),
      /"keys" must be an array of non-empty strings/,
    );
    assert.throws(
      () => loadScrubRules(write("g.json", { patterns: [{ name: "x", regex: "a", check: "crc" }] })),
      /unknown check "crc"/,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
});
