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

/**
 * Keys whose few values repeat span after span (one agent, its session, a few models and tools).
 * A sink may keep their redacted values in a small map of its own: the agent's memo holds every
 * text the recorder and exporters saw, and a lookup in a map that large is slower than in a few
 * entries. Redaction is a function of the text alone, so the result is the same.
 */
const REPEATING = new Set<string>([GenAI.PROVIDER_NAME, GenAI.CONVERSATION_ID, GenAI.AGENT_NAME, GenAI.REQUEST_MODEL, GenAI.RESPONSE_MODEL, GenAI.TOOL_NAME]);
/**
 * Ids a provider gives each reply and tool call: provider data, so scanned, but new every time,
 * so scanned without the memo (`Redactor.redactOnce`). Only short ones: a long text is worth remembering.
 */
const ONE_OFF = new Set<string>([GenAI.RESPONSE_ID, GenAI.TOOL_CALL_ID]);
const MAX_ONE_OFF_CHARS = 128;

/** Past this many distinct values the map starts again (a key that turned out not to repeat). */
const MAX_REPEATED = 256;

/** A sink's small map of redacted repeating values (see `REPEATING`). */
export type RepeatedValues = Map<string, string>;

function redactRepeating(value: string, redactor: Redactor, repeated: RepeatedValues): string {
  let clean = repeated.get(value);
  if (clean === undefined) {
    clean = redactor.redactString(value);
    if (repeated.size >= MAX_REPEATED) repeated.clear();
    repeated.set(value, clean);
  }
  return clean;
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
export function redactAttributes(attributes: Attributes, redactor: Redactor, repeated?: RepeatedValues): Attributes {
  if (!redactor.enabled) return attributes;
  let out: Attributes | undefined;
  // for-in over the mapping's plain objects: no entry arrays built per attribute.
  for (const key in attributes) {
    const value = attributes[key];
    if (typeof value === "number" || typeof value === "boolean" || generated(key, value)) continue;
    const clean =
      typeof value !== "string"
        ? redactValue(value, redactor)
        : repeated && REPEATING.has(key)
          ? redactRepeating(value, redactor, repeated)
          : value.length <= MAX_ONE_OFF_CHARS && ONE_OFF.has(key)
            ? redactor.redactOnce(value)
            : redactor.redactString(value);
    if (clean !== value) (out ??= { ...attributes })[key] = clean;
  }
  return out ?? attributes;
}

export function redactEvent(event: SpanEventSpec, redactor: Redactor): SpanEventSpec {
  const attributes = redactAttributes(event.attributes, redactor);
  return attributes === event.attributes ? event : { ...event, attributes };
}
