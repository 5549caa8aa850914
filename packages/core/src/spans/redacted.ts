import type { Redactor } from "../redact/redactor.js";
import { GenAI, Hx } from "./attributes.js";
import type { AttributeValue, Attributes, SpanEventSpec } from "./span-model.js";

/**
 * Attributes whose values are harnessx's own vocabulary (operation names, the tool type, run
 * statuses, tool outcomes, finish reasons) or ids core makes from time and randomness (run ids):
 * no prompt, reply, argument or result is ever written there, so a value of the shape such words
 * have needs no redaction scan. The shape is still checked, because recorded events are data: a
 * value that is not one lower-case word (letters, digits, `_`; no separators, so no `key=value`
 * form, address or secret prefix fits in it) is scanned like any other.
 */
const GENERATED = new Set<string>([GenAI.OPERATION_NAME, GenAI.TOOL_TYPE, GenAI.RESPONSE_FINISH_REASONS, Hx.RUN_ID, Hx.RUN_STATUS, Hx.TOOL_OUTCOME]);

/** One lower-case word of at most 64 characters (a character loop: cheaper than a regex on these short values). */
function isWord(value: unknown): boolean {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95)) return false;
  }
  return true;
}

function generated(key: string, value: AttributeValue): boolean {
  if (!GENERATED.has(key)) return false;
  return Array.isArray(value) ? value.every(isWord) : isWord(value);
}

function redactValue(value: AttributeValue, redactor: Redactor): AttributeValue {
  if (typeof value === "string") return redactor.redactString(value);
  if (!Array.isArray(value) || !value.some((v) => typeof v === "string")) return value;
  return value.map((v) => (typeof v === "string" ? redactor.redactString(v) : v)) as AttributeValue;
}

/**
 * Attributes with every string (content, error messages, arguments) through the agent's
 * redaction policy: the one place a sink's text leaves the process. Numbers, booleans and the
 * mapping's own words (above) pass. The input is returned as is when nothing changed.
 */
export function redactAttributes(attributes: Attributes, redactor: Redactor): Attributes {
  if (!redactor.enabled) return attributes;
  let out: Attributes | undefined;
  // for-in over the mapping's plain objects: no entry arrays built per attribute.
  for (const key in attributes) {
    const value = attributes[key];
    if (typeof value === "number" || typeof value === "boolean" || generated(key, value)) continue;
    const clean = redactValue(value, redactor);
    if (clean !== value) (out ??= { ...attributes })[key] = clean;
  }
  return out ?? attributes;
}

export function redactEvent(event: SpanEventSpec, redactor: Redactor): SpanEventSpec {
  const attributes = redactAttributes(event.attributes, redactor);
  return attributes === event.attributes ? event : { ...event, attributes };
}
