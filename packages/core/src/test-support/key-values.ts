import assert from "node:assert/strict";
import { KeyNames } from "../redact/key-names.js";
import { keyValueSpans } from "../redact/key-values.js";
import { DEFAULT_SENSITIVE_KEYS } from "../redact/rules.js";

/** The default sensitive keys, as the redactor names them. */
const names = new KeyNames(DEFAULT_SENSITIVE_KEYS);
const kindOf = (key: string) => names.kindOf(key);

/** The values found, as the text each covers (each inside the text). */
export const values = (text: string, near?: number[]) =>
  keyValueSpans(text, kindOf, near).map((s) => {
    assert.ok(0 <= s.start && s.start < s.end && s.end <= text.length, JSON.stringify(s));
    return text.slice(s.start, s.end);
  });

/** The values found with the name each is reported under. */
export const named = (text: string) => keyValueSpans(text, kindOf).map((s) => [s.name, text.slice(s.start, s.end)]);
