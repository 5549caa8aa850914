import { renameDuplicateKeys } from "./duplicate-keys.js";

/** Strings longer than this are not parsed as JSON to redact inside them (the text rules still apply). */
const MAX_NESTED_JSON_CHARS = 4_000_000;

/** What redacting JSON inside a string needs of a redaction policy. */
export interface StructuralRedaction {
  /** `path` names the root; paths of redactions are appended to `redactedPaths`. */
  redact(value: unknown, path: string, redactedPaths: string[]): unknown;
}

/**
 * JSON inside a string, redacted structurally and serialized again (a repeated key renamed
 * `(2) key`); the text itself when nothing in it is redacted; undefined when it is not JSON.
 */
export function redactNestedJson(policy: StructuralRedaction, text: string): string | undefined {
  const first = text.trimStart()[0];
  const last = text.trimEnd().at(-1);
  if (text.length > MAX_NESTED_JSON_CHARS || !((first === "{" && last === "}") || (first === "[" && last === "]")))
    return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const paths: string[] = [];
  const clean = policy.redact(parsed, "", paths);
  if (paths.length === 0) return text;
  // JSON.parse keeps the last of a repeated key, so written again the text would drop what the
  // others held, which whoever read the text (a model) saw: renamed, every member is kept.
  const whole = renameDuplicateKeys(text);
  return JSON.stringify(whole === undefined ? clean : policy.redact(JSON.parse(whole), "", []));
}
