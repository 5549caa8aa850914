import { binaryToJson, isSerializedBuffer } from "./binary.js";
import { errorToJson } from "./error-json.js";
import { setOwn } from "../util/set-own.js";

/** Values nested deeper than this are cut (a guard against pathological objects, not a format limit). */
const MAX_DEPTH = 64;

/** What turning a value into redacted, JSON-safe data needs of a redaction policy. */
export interface ValueRedaction {
  /** The text with secrets replaced; the same string when nothing matched. */
  redactText(text: string): string;
  /** True when `value`, under the object key `key`, is replaced. */
  hidesValue(key: string, value: unknown): boolean;
  /** An object key as written out (a key that is itself a secret, redacted). */
  redactKey(key: string): string;
  /** True when `value` is the argument of the sensitive option `previous` (`["--password", "v"]`). */
  hidesArgument(previous: unknown, value: unknown): boolean;
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
export function redactValue(
  policy: ValueRedaction,
  replace: KeyReplacement,
  value: unknown,
  path: string,
  redactedPaths: string[],
): unknown {
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
        const clean = this.policy.redactText(value);
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
      if (ArrayBuffer.isView(object))
        return binaryToJson(object, (text) =>
          noting(this.policy.redactText(text), text, () => redacted.push(path.join("."))),
        );
      if (isSerializedBuffer(object)) return this.walk(Buffer.from(object.data), path, redacted, seen, depth + 1);
      if (object instanceof Map)
        return this.walkEntries(
          Array.from(object.entries(), ([k, v]) => [keyText(k), v]),
          path,
          redacted,
          seen,
          depth,
        );
      if (Array.isArray(object) || object instanceof Set) {
        const items = Array.isArray(object) ? object : Array.from(object);
        const out: unknown[] = new Array(items.length);
        for (let i = 0; i < items.length; i++) {
          path.push(String(i));
          const argument = i > 0 && this.policy.hidesArgument(items[i - 1], items[i]);
          const item = argument
            ? this.hidden(String(items[i - 1]).replace(/^-+/, ""), items[i], path, redacted, seen, depth)
            : this.walk(items[i], path, redacted, seen, depth + 1);
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

  private walkEntries(
    entries: Array<[string, unknown]>,
    path: string[],
    redacted: string[],
    seen: Set<object>,
    depth: number,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let keys: Set<string> | undefined;
    for (const [key, item] of entries) {
      const name = this.policy.redactKey(key);
      const written = name === key ? key : unusedKey(out, name, (keys ??= new Set(entries.map(([k]) => k))));
      path.push(written);
      if (written !== key) redacted.push(path.join("."));
      if (this.policy.hidesValue(key, item)) setOwn(out, written, this.hidden(name, item, path, redacted, seen, depth));
      else {
        const clean = this.walk(item, path, redacted, seen, depth + 1);
        if (clean !== undefined) setOwn(out, written, clean);
      }
      path.pop();
    }
    return out;
  }

  /** The replacement of a hidden value (a non-string one replaced as its JSON); its path is noted. */
  private hidden(
    key: string,
    item: unknown,
    path: string[],
    redacted: string[],
    seen: Set<object>,
    depth: number,
  ): string {
    redacted.push(path.join("."));
    return this.replace.key(
      key,
      typeof item === "string" ? item : (JSON.stringify(this.walk(item, path, [], seen, depth + 1)) ?? ""),
    );
  }
}

/**
 * `name`, or `name (2)`, `name (3)`...: the first neither a key of `out` yet nor among `keys`, the
 * object's own (two secrets used as keys may redact alike, and a later member may be named as a
 * secret's replacement is: it must not be overwritten).
 */
export function unusedKey(out: object, name: string, keys: ReadonlySet<string>): string {
  const free = (candidate: string) => !Object.hasOwn(out, candidate) && !keys.has(candidate);
  if (free(name)) return name;
  for (let n = 2; ; n++) if (free(`${name} (${n})`)) return `${name} (${n})`;
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
