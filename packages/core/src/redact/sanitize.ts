import { binaryToJson } from "./binary.js";
import { errorToJson } from "./error-json.js";

/** Values nested deeper than this are cut (a guard against pathological objects, not a format limit). */
const MAX_DEPTH = 64;

/** What turning a value into redacted, JSON-safe data needs of a redaction policy. */
export interface ValueRedaction {
  /** The text with secrets replaced; the same string when nothing matched. */
  redactString(text: string): string;
  isSensitiveKey(key: string): boolean;
}

/** What the value of a sensitive key becomes. */
export interface KeyReplacement {
  /** `found` is the value, a non-string one as its JSON. */
  key(key: string, found: string): string;
}

/**
 * Walks `value` into JSON-safe data, redacting as it goes (see `Redactor`); `path` names the
 * root, and the path of each replacement is appended to `redactedPaths`.
 */
export function sanitizeValue(policy: ValueRedaction, replace: KeyReplacement, value: unknown, path: string, redactedPaths: string[]): unknown {
  return new ValueWalk(policy, replace).walk(value, [path], redactedPaths, new Set(), 0);
}

class ValueWalk {
  constructor(
    private readonly policy: ValueRedaction,
    private readonly replace: KeyReplacement,
  ) {}

  walk(value: unknown, path: string[], redacted: string[], seen: Set<object>, depth: number): unknown {
    switch (typeof value) {
      case "string": {
        const clean = this.policy.redactString(value);
        if (clean !== value) redacted.push(path.join("."));
        return clean;
      }
      case "number":
        return Number.isFinite(value) ? value : String(value);
      case "boolean":
        return value;
      case "bigint":
        return value.toString();
      case "undefined":
      case "function":
      case "symbol":
        return undefined;
    }
    if (value === null) return null;
    const object = value as object;
    if (seen.has(object)) return "[Circular]";
    if (depth >= MAX_DEPTH) return "[Truncated: too deep]";
    seen.add(object);
    try {
      if (object instanceof Error) return this.walk(errorToJson(object), path, redacted, seen, depth + 1);
      if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
      if (ArrayBuffer.isView(object)) return binaryToJson(object, (text) => noting(this.policy.redactString(text), text, () => redacted.push(path.join("."))));
      if (object instanceof Map) return this.walkEntries(Array.from(object.entries(), ([k, v]) => [keyText(k), v]), path, redacted, seen, depth);
      if (Array.isArray(object) || object instanceof Set) {
        const items = Array.isArray(object) ? object : Array.from(object);
        const out: unknown[] = new Array(items.length);
        for (let i = 0; i < items.length; i++) {
          path.push(String(i));
          const item = this.walk(items[i], path, redacted, seen, depth + 1);
          path.pop();
          out[i] = item === undefined ? null : item;
        }
        return out;
      }
      const toJSON = (object as { toJSON?: () => unknown }).toJSON;
      if (typeof toJSON === "function") return this.walk(toJSON.call(object), path, redacted, seen, depth + 1);
      return this.walkEntries(Object.entries(object), path, redacted, seen, depth);
    } finally {
      seen.delete(object);
    }
  }

  private walkEntries(entries: Array<[string, unknown]>, path: string[], redacted: string[], seen: Set<object>, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, item] of entries) {
      path.push(key);
      if (item !== undefined && item !== null && item !== "" && typeof item !== "function" && this.policy.isSensitiveKey(key)) {
        out[key] = this.replace.key(key, typeof item === "string" ? item : JSON.stringify(this.walk(item, path, [], seen, depth + 1)) ?? "");
        redacted.push(path.join("."));
      } else {
        const clean = this.walk(item, path, redacted, seen, depth + 1);
        if (clean !== undefined) out[key] = clean;
      }
      path.pop();
    }
    return out;
  }
}

/** A Map key as an object key; a key without a string form (a null-prototype object) becomes its type. */
export function keyText(key: unknown): string {
  try {
    return String(key);
  } catch {
    return `[${typeof key}]`;
  }
}

/** `clean`, after calling `note` when it differs from `original`. */
export function noting(clean: string, original: string, note: () => void): string {
  if (clean !== original) note();
  return clean;
}
