import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Redactor } from "../redact/redactor.js";
import { GenAI, Hx } from "./attributes.js";
import { VOCABULARY, redactAttributes, type RepeatedValues } from "./redacted.js";

const KEY = "sk-abcdefghijklmnopqrstuvwx";
const EMAIL = "jane@example.com";

// The shortcuts (the mapping's own words, repeating values, one-off ids) must give exactly what a
// scan of every string gives: these are the same redactions, only cheaper.
describe("span attribute redaction", () => {
  test("the mapping's own words pass, and each is one the default policy leaves as it is", () => {
    const redactor = new Redactor();
    for (const word of VOCABULARY) assert.equal(redactor.redactText(word), word);
    const words = {
      [GenAI.OPERATION_NAME]: "chat",
      [Hx.RUN_STATUS]: "completed",
      [Hx.TOOL_OUTCOME]: "denied",
      [GenAI.TOOL_TYPE]: "function",
      [GenAI.RESPONSE_FINISH_REASONS]: ["end_turn"],
    };
    assert.equal(redactAttributes(words, redactor), words);
  });

  test("the same keys holding anything else are scanned, word-shaped secrets included", () => {
    const redactor = new Redactor();
    const wordKey = "sk_live_abcdefghijklmnopqrstuvwx";
    const forged = {
      [GenAI.OPERATION_NAME]: `chat ${KEY}`,
      [Hx.RUN_STATUS]: EMAIL,
      [Hx.TOOL_OUTCOME]: wordKey,
      [Hx.RUN_ID]: wordKey,
      [GenAI.RESPONSE_FINISH_REASONS]: ["stop", EMAIL],
    };
    const out = redactAttributes(forged, redactor);
    assert.equal(out[GenAI.OPERATION_NAME], redactor.redactText(`chat ${KEY}`));
    assert.equal(out[Hx.RUN_STATUS], redactor.redactText(EMAIL));
    assert.equal(out[Hx.TOOL_OUTCOME], redactor.redactText(wordKey));
    assert.equal(out[Hx.RUN_ID], redactor.redactText(wordKey));
    assert.deepEqual(out[GenAI.RESPONSE_FINISH_REASONS], ["stop", redactor.redactText(EMAIL)]);
    for (const secret of [KEY, EMAIL, wordKey]) assert.ok(!JSON.stringify(out).includes(secret), secret);
  });

  test("repeating values and one-off ids get what redactText gives, secrets included", () => {
    const redactor = new Redactor();
    const repeated: RepeatedValues = new Map();
    const attributes = {
      [Hx.RUN_ID]: "run_0mx5zwcsa41c756f2beb7",
      [GenAI.PROVIDER_NAME]: KEY,
      [GenAI.REQUEST_MODEL]: "gpt-4o",
      [GenAI.RESPONSE_ID]: `resp_${KEY}`,
      [GenAI.TOOL_CALL_ID]: EMAIL,
      [GenAI.TOOL_NAME]: "search",
    };
    const expected = Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, redactor.redactText(v)]));
    for (let i = 0; i < 3; i++) assert.deepEqual(redactAttributes(attributes, redactor, repeated), expected);
    assert.deepEqual(redactAttributes(attributes, redactor), expected);
  });

  test("redactTextOnce equals redactText", () => {
    const redactor = new Redactor();
    for (const text of [
      "",
      "short",
      "call_3_1",
      "scripted-3",
      KEY,
      EMAIL,
      `token=${"x".repeat(20)}`,
      '{"password":"hunter22"}',
    ]) {
      assert.equal(redactor.redactTextOnce(text), redactor.redactText(text), text);
    }
    assert.equal(new Redactor(false).redactTextOnce(KEY), KEY);
  });
});
