import type { Redactor } from "@harnessx/core/extension";
import type { RecordedEvent } from "../format/event.js";
import type { ResolvedRecorderOptions } from "./options.js";

/** Payloads that carry Error objects or another extension's arbitrary data always take the careful path. */
const CAREFUL_KINDS = new Set(["error", "retry", "agent_end", "custom"]);

/** An event's line parts: `attrsAsIs` when redaction left the attributes as they were (their JSON is theirs, unchanged). */
export interface EncodedEvent {
  line: RecordedEvent;
  attrsJson: string;
  payloadJson: string | undefined;
  attrsAsIs: boolean;
}

/**
 * An event's line with its attributes and payload redacted into JSON. `line` comes with `attrs: {}`,
 * the placeholder the attributes' JSON replaces when the line is written; `customRedact`, when
 * set, may edit the whole event after the agent's redactor ran.
 */
export function encodeEvent(
  line: RecordedEvent,
  attrs: Record<string, unknown>,
  payload: unknown,
  redactor: Redactor,
  customRedact: ResolvedRecorderOptions["customRedact"],
): EncodedEvent {
  return customRedact
    ? customRedacted(line, attrs, payload, redactor, customRedact)
    : redacted(line, attrs, payload, redactor);
}

function redacted(
  line: RecordedEvent,
  attrs: Record<string, unknown>,
  payload: unknown,
  redactor: Redactor,
): EncodedEvent {
  // Fast path: plain data with nothing to redact, serialized natively.
  if (!CAREFUL_KINDS.has(line.kind)) {
    const attrsFast = redactor.jsonIfClean(attrs);
    const payloadFast = payload === undefined || attrsFast === undefined ? undefined : redactor.jsonIfClean(payload);
    if (attrsFast !== undefined && (payload === undefined || payloadFast !== undefined))
      return { line, attrsJson: attrsFast, payloadJson: payloadFast, attrsAsIs: true };
  }
  const paths: string[] = [];
  const attrsJson = redactor.redactToJson(attrs, "attrs", paths) ?? "{}";
  const payloadJson = payload === undefined ? undefined : redactor.redactToJson(payload, "payload", paths);
  if (paths.length) line.redacted = paths;
  return { line, attrsJson, payloadJson, attrsAsIs: false };
}

/** With a custom `redact(event)`, the event is built as an object first so the function can edit it. */
function customRedacted(
  draft: RecordedEvent,
  attrs: Record<string, unknown>,
  payload: unknown,
  redactor: Redactor,
  customRedact: (event: RecordedEvent) => RecordedEvent,
): EncodedEvent {
  const paths: string[] = [];
  draft.attrs = redactor.redact(attrs, "attrs", paths) as Record<string, unknown>;
  if (payload !== undefined) draft.payload = redactor.redact(payload, "payload", paths);
  if (paths.length) draft.redacted = paths;
  const { payload: edited, attrs: editedAttrs, ...line } = customRedact(draft);
  return {
    line: { ...line, attrs: {} },
    attrsJson: JSON.stringify(editedAttrs ?? {}),
    payloadJson: edited === undefined ? undefined : JSON.stringify(edited),
    attrsAsIs: false,
  };
}
