// The shortcuts of span attribute redaction keep their promises: only the mapping's own words in
// the mapping's own keys skip the scan (all of an array, not some of it), nothing is copied when
// nothing changes, and a sink's map of repeating values stays small.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Redactor } from "../redact/redactor.js";
import { redactAttributes, redactEvent, type RepeatedValues } from "./redacted.js";

const EMAIL = "jane@example.com";
const redactor = new Redactor();

describe("span attribute redaction shortcuts", () => {
  test("a finish-reason list skips the scan only when every item is the mapping's word", () => {
    const out = redactAttributes({ "gen_ai.response.finish_reasons": ["end_turn", EMAIL] }, redactor);
    assert.deepEqual(out["gen_ai.response.finish_reasons"], ["end_turn", redactor.redactText(EMAIL)]);
    const words = { "gen_ai.response.finish_reasons": ["end_turn", "tool_use"] };
    assert.equal(redactAttributes(words, redactor), words);
  });

  test("a vocabulary word under a key that is not the mapping's own is still scanned like any text", () => {
    const attributes = { "app.status": "completed", "app.note": EMAIL };
    const out = redactAttributes(attributes, redactor);
    assert.deepEqual(out, { "app.status": "completed", "app.note": redactor.redactText(EMAIL) });
  });

  test("attributes that need nothing come back as the same object; numbers, booleans and lists of them pass", () => {
    const clean = {
      "gen_ai.usage.input_tokens": 3,
      "harnessx.run.resumed": true,
      "app.ids": [1, 2],
      "app.flags": [true],
      "gen_ai.request.model": "gpt-4o",
    };
    assert.equal(redactAttributes(clean, redactor), clean);
    const mixed = { "app.list": [1, EMAIL] as unknown as string[] };
    assert.deepEqual(redactAttributes(mixed, redactor)["app.list"], [1, redactor.redactText(EMAIL)]);
    assert.equal(redactAttributes({ a: EMAIL }, new Redactor(false)).a, EMAIL, "a policy that is off changes nothing");
  });

  test("a span event is the same object when nothing changed, a copy with redacted attributes otherwise", () => {
    const clean = { name: "harnessx.retry", time: 1, attributes: { "harnessx.retry.attempt": 1 } };
    assert.equal(redactEvent(clean, redactor), clean);
    const dirty = { name: "harnessx.error", time: 2, attributes: { "exception.message": `mail ${EMAIL}` } };
    const out = redactEvent(dirty, redactor);
    assert.notEqual(out, dirty);
    assert.deepEqual(out, {
      name: "harnessx.error",
      time: 2,
      attributes: { "exception.message": redactor.redactText(`mail ${EMAIL}`) },
    });
    assert.equal(dirty.attributes["exception.message"], `mail ${EMAIL}`, "the event given is left as it was");
  });

  test("a sink's map of repeating values starts again past 256 entries, and is used only for repeating keys", () => {
    const repeated: RepeatedValues = new Map();
    for (let i = 0; i < 256; i++) redactAttributes({ "gen_ai.request.model": `model-${i}` }, redactor, repeated);
    assert.equal(repeated.size, 256);
    redactAttributes({ "gen_ai.request.model": "model-256" }, redactor, repeated);
    assert.deepEqual([...repeated.keys()], ["model-256"]);
    redactAttributes({ "gen_ai.request.model": "model-256" }, redactor, repeated);
    assert.equal(repeated.size, 1, "a value seen is not added again");
    redactAttributes({ "app.note": "not a repeating key" }, redactor, repeated);
    assert.equal(repeated.size, 1);
  });
});

describe("which scan each attribute gets", () => {
  /** A policy that changes nothing and notes each scan it is asked for. */
  function countingPolicy() {
    const scans: string[] = [];
    const policy = {
      enabled: true,
      redactText: (text: string) => {
        scans.push(`string:${text}`);
        return text;
      },
      redactTextOnce: (text: string) => {
        scans.push(`once:${text}`);
        return text;
      },
      hidesValue: () => false,
      hidesArgument: () => false,
      redactKey: (key: string) => key,
    };
    return { scans, policy: policy as unknown as Redactor };
  }

  test("the mapping's words in its own keys are not scanned; numbers and booleans are not; everything else is", () => {
    const { scans, policy } = countingPolicy();
    redactAttributes(
      {
        "gen_ai.operation.name": "chat",
        "gen_ai.tool.type": "function",
        "harnessx.run.status": "awaiting_approval",
        "harnessx.tool.outcome": "interrupted",
        "gen_ai.response.finish_reasons": ["tool_use", "max_tokens"],
        n: 1,
        b: false,
        "app.word": "chat",
      },
      policy,
    );
    assert.deepEqual(scans, ["string:chat"], "only the word under a key that is not the mapping's");
  });

  test("the other words of the vocabulary pass too: every run status, tool outcome and the unfinished run", () => {
    const { scans, policy } = countingPolicy();
    for (const status of ["completed", "failed", "cancelled", "awaiting_approval", "unfinished"])
      redactAttributes({ "harnessx.run.status": status }, policy);
    for (const outcome of ["executed", "failed", "timeout", "invalid_input", "unknown_tool", "denied", "interrupted"])
      redactAttributes({ "harnessx.tool.outcome": outcome }, policy);
    for (const operation of ["invoke_agent", "execute_tool"])
      redactAttributes({ "gen_ai.operation.name": operation }, policy);
    assert.deepEqual(scans, []);
    redactAttributes(
      { "harnessx.run.status": "", "gen_ai.response.finish_reasons": [1, 2] as unknown as string[] },
      policy,
    );
    assert.deepEqual(
      scans,
      ["string:"],
      "an empty status is no word of the vocabulary; a list without text needs no scan",
    );
  });

  test("short one-off ids are scanned without the memo; long ones and other keys with it", () => {
    const { scans, policy } = countingPolicy();
    const long = "x".repeat(129);
    redactAttributes(
      {
        "harnessx.run.id": "run_1",
        "gen_ai.response.id": "x".repeat(128),
        "gen_ai.tool.call.id": long,
        "app.id": "run_2",
      },
      policy,
    );
    assert.deepEqual(scans, ["once:run_1", `once:${"x".repeat(128)}`, `string:${long}`, "string:run_2"]);
  });

  test("a repeating key's value is scanned once per sink map; without a map, every time", () => {
    const { scans, policy } = countingPolicy();
    const repeated: RepeatedValues = new Map();
    for (let i = 0; i < 3; i++)
      redactAttributes({ "gen_ai.request.model": "gpt-4o", "gen_ai.tool.name": "search" }, policy, repeated);
    assert.deepEqual(scans, ["string:gpt-4o", "string:search"]);
    redactAttributes({ "gen_ai.request.model": "gpt-4o" }, policy);
    assert.equal(scans.length, 3);
  });
});
