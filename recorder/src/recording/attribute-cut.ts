import { MAX_ATTRIBUTE_CHARS, MAX_ATTRIBUTES_JSON_CHARS } from "../format/read-limits.js";

/** A text cut to `max` characters, saying how much was left out. */
export function cut(text: string, max: number = MAX_ATTRIBUTE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}... [${text.length - max} characters cut by the recorder]`;
}

function cutTexts(value: unknown, max: number): unknown {
  if (typeof value === "string") return cut(value, max);
  if (Array.isArray(value)) return value.map((item) => cutTexts(item, max));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutTexts(item, max)]));
  return value;
}

/**
 * Attributes (as the JSON a line holds) within `MAX_ATTRIBUTES_JSON_CHARS`, or undefined when
 * they already are. Attributes are an event's summary (the payload holds the whole), so
 * keeping a line readable costs only their long texts: each is cut to `MAX_ATTRIBUTE_CHARS`, and
 * when that is not enough only the top-level scalars stay (tool name, call id, status...), cut
 * shorter still, with `attrsCut` giving the size left out.
 */
export function boundedAttributes(attrsJson: string): string | undefined {
  if (attrsJson.length <= MAX_ATTRIBUTES_JSON_CHARS) return undefined;
  const attrs = JSON.parse(attrsJson) as Record<string, unknown>;
  const texts = JSON.stringify({
    ...(cutTexts(attrs, MAX_ATTRIBUTE_CHARS) as Record<string, unknown>),
    attrsCut: attrsJson.length,
  });
  if (texts.length <= MAX_ATTRIBUTES_JSON_CHARS) return texts;
  const scalars = Object.entries(attrs)
    .filter(([, value]) => value === null || typeof value !== "object")
    .slice(0, 256);
  return JSON.stringify({
    ...(cutTexts(Object.fromEntries(scalars), 1024) as Record<string, unknown>),
    attrsCut: attrsJson.length,
  });
}
