import type { Redactor } from "../redact/redactor.js";
import { GenAI, Hx } from "./attributes.js";
import type { AttributeValue, Attributes, SpanEventSpec } from "./span-model.js";
import { SPAN_OPERATION } from "./span-names.js";
import type { RunStatus } from "../engine/run-types.js";
import type { ToolOutcome } from "../hooks/payloads.js";
import { STOP_REASONS } from "../types/provider.js";

/**
 * Attributes whose values the mapping writes from harnessx's own vocabulary: operation names, the
 * tool type, run statuses, tool outcomes, finish reasons. These words hold no content, so a value
 * that is one of them needs no redaction scan (under the default policy each redacts to itself:
 * `redacted.test.ts` checks). Recorded events are data, so a value outside the vocabulary is
 * scanned like any other: a word shape alone would not do, as `sk_live_...` or `ghp_...` are words.
 */
const GENERATED = new Set<string>([
  GenAI.OPERATION_NAME,
  GenAI.TOOL_TYPE,
  GenAI.RESPONSE_FINISH_REASONS,
  Hx.RUN_STATUS,
  Hx.TOOL_OUTCOME,
]);
// Records over the unions, so the compiler flags a status or outcome added to core but not here.
const RUN_STATUSES = { completed: 1, failed: 1, cancelled: 1, awaiting_approval: 1 } satisfies Record<RunStatus, 1>;
const TOOL_OUTCOMES = {
  executed: 1,
  failed: 1,
  timeout: 1,
  invalid_input: 1,
  unknown_tool: 1,
  denied: 1,
  interrupted: 1,
} satisfies Record<ToolOutcome, 1>;
export const VOCABULARY: ReadonlySet<string> = new Set<string>([
  ...Object.values(SPAN_OPERATION),
  "function",
  "unfinished",
  ...Object.keys(RUN_STATUSES),
  ...Object.keys(TOOL_OUTCOMES),
  ...STOP_REASONS,
]);

function generated(key: string, value: AttributeValue): boolean {
  if (!GENERATED.has(key)) return false;
  return Array.isArray(value)
    ? value.every((v) => typeof v === "string" && VOCABULARY.has(v))
    : typeof value === "string" && VOCABULARY.has(value);
}

/**
 * Keys whose few values repeat span after span (one agent, its session, a few models and tools).
 * A sink may keep their redacted values in a small map of its own: the agent's memo holds every
 * text the recorder and exporters saw, and a lookup in a map that large is slower than in a few
 * entries. Redaction is a function of the text alone, so the result is the same.
 */
const REPEATING = new Set<string>([
  GenAI.PROVIDER_NAME,
  GenAI.CONVERSATION_ID,
  GenAI.AGENT_NAME,
  GenAI.REQUEST_MODEL,
  GenAI.RESPONSE_MODEL,
  GenAI.TOOL_NAME,
]);
/**
 * Ids new with every run, reply and tool call (the run's from core, the others from the provider):
 * scanned, but without the memo (`Redactor.redactTextOnce`), where they would only miss and crowd out
 * texts that repeat. Only short ones: a long text is worth remembering.
 */
const ONE_OFF = new Set<string>([Hx.RUN_ID, GenAI.RESPONSE_ID, GenAI.TOOL_CALL_ID]);
const MAX_ONE_OFF_CHARS = 128;

/** Past this many distinct values the map starts again (a key that turned out not to repeat). */
const MAX_REPEATED = 256;

/** A sink's small map of redacted repeating values (see `REPEATING`). */
export type RepeatedValues = Map<string, string>;

function redactRepeating(value: string, redactor: Redactor, repeated: RepeatedValues): string {
  let clean = repeated.get(value);
  if (clean === undefined) {
    clean = redactor.redactText(value);
    if (repeated.size >= MAX_REPEATED) repeated.clear();
    repeated.set(value, clean);
  }
  return clean;
}

function redactValue(value: AttributeValue, redactor: Redactor): AttributeValue {
  if (typeof value === "string") return redactor.redactText(value);
  if (!Array.isArray(value) || !value.some((v) => typeof v === "string")) return value;
  // An argv (`process.command_args`): the argument after `--password` is a secret of its own.
  return value.map((v, i) =>
    typeof v !== "string"
      ? v
      : i > 0 && redactor.hidesArgument(value[i - 1], v)
        ? (redactor.redact([value[i - 1], v], "", []) as string[])[1]
        : redactor.redactText(v),
  ) as AttributeValue;
}

/**
 * A span's name (`chat <model>`, `invoke_agent <agent>`, `execute_tool <tool>`) through the
 * agent's policy, as the recording redacts model and agent names; names repeat, so `repeated`
 * (a sink's small map) remembers them.
 */
export function redactSpanName(name: string, redactor: Redactor, repeated?: RepeatedValues): string {
  if (!redactor.enabled) return name;
  return repeated ? redactRepeating(name, redactor, repeated) : redactor.redactText(name);
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
    // An attribute named like a secret (`db.password` in OTEL_RESOURCE_ATTRIBUTES) is one, whatever its value looks like.
    if (redactor.hidesValue(key, value)) {
      (out ??= { ...attributes })[key] = (redactor.redact({ [key]: value }, "", []) as Attributes)[key];
      continue;
    }
    const clean =
      typeof value !== "string"
        ? redactValue(value, redactor)
        : repeated && REPEATING.has(key)
          ? redactRepeating(value, redactor, repeated)
          : value.length <= MAX_ONE_OFF_CHARS && ONE_OFF.has(key)
            ? redactor.redactTextOnce(value)
            : redactor.redactText(value);
    if (clean !== value) (out ??= { ...attributes })[key] = clean;
  }
  return out ?? attributes;
}

/** A span event with its attributes through `redactor` (see {@link redactAttributes}); the same object when nothing changed. */
export function redactEvent(event: SpanEventSpec, redactor: Redactor): SpanEventSpec {
  const attributes = redactAttributes(event.attributes, redactor);
  return attributes === event.attributes ? event : { ...event, attributes };
}
