import type { Redactor } from "../redact/redactor.js";
import type { Attributes, SpanEventSpec } from "./span-model.js";

/**
 * Attributes with every string (content, error messages, arguments) through the agent's
 * redaction policy: the one place a sink's text leaves the process. Numbers and booleans pass.
 */
export function redactAttributes(attributes: Attributes, redactor: Redactor): Attributes {
  if (!redactor.enabled) return attributes;
  let out: Attributes | undefined;
  for (const [key, value] of Object.entries(attributes)) {
    const clean = typeof value === "string" ? redactor.redactString(value) : Array.isArray(value) && value.some((v) => typeof v === "string") ? value.map((v) => (typeof v === "string" ? redactor.redactString(v) : v)) : value;
    if (clean !== value) (out ??= { ...attributes })[key] = clean as Attributes[string];
  }
  return out ?? attributes;
}

export function redactEvent(event: SpanEventSpec, redactor: Redactor): SpanEventSpec {
  const attributes = redactAttributes(event.attributes, redactor);
  return attributes === event.attributes ? event : { ...event, attributes };
}
