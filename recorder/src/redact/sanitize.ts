import type { RedactionPattern, RedactionRules } from "./rules.js";

/** Values nested deeper than this are cut (a guard against pathological objects, not a format limit). */
const MAX_DEPTH = 64;

/**
 * Turns any value into JSON-safe data in one walk, redacting as it goes:
 * Errors become `{ name, message, code, kind, status, stack }`, cycles `"[Circular]"`,
 * BigInt a decimal string, binary data `{ type, bytes, base64 }`, Map/Set plain objects/arrays,
 * functions and symbols vanish. Sensitive keys and matching substrings are replaced, and the
 * path of each replacement is appended to `redactedPaths`.
 */
export class Sanitizer {
  private readonly keyMatchers: string[];
  private readonly patterns: readonly RedactionPattern[];
  private readonly anyPattern: RegExp | undefined;
  private readonly keyHint: RegExp | undefined;
  private readonly redacting: boolean;

  constructor(rules: RedactionRules | false) {
    this.redacting = rules !== false;
    this.keyMatchers = rules === false ? [] : rules.keys.map(normalizeKey);
    this.patterns = rules === false ? [] : rules.patterns;
    // One combined test first: most strings contain no secret, and one scan is cheaper than eight.
    // Sensitive keys inside text (JSON in a tool result, "Authorization: ..." header lines) are
    // found by a key hint, then every `key: value` / `"key": "value"` / `key=value` pair is checked.
    const hint = this.keyMatchers.map((key) => key.split("").map(escapeRegExp).join("[-_]?")).join("|");
    this.keyHint = hint ? new RegExp(hint, "i") : undefined;
    const sources = [...this.patterns.map((p) => `(?:${p.pattern.source})`), ...(hint ? [`(?:${hint})`] : [])];
    this.anyPattern = sources.length ? new RegExp(sources.join("|"), "i") : undefined;
  }

  /** `path` names the root (e.g. "payload"); paths of redactions are appended to `redactedPaths`. */
  sanitize(value: unknown, path: string, redactedPaths: string[]): unknown {
    return this.walk(value, [path], redactedPaths, new Set(), 0);
  }

  /** Redacts one string; returns it unchanged when nothing matched. */
  redactString(text: string): string {
    if (!this.anyPattern || !this.anyPattern.test(text)) return text;
    let out = text;
    for (const rule of this.patterns) {
      rule.pattern.lastIndex = 0;
      out = out.replace(rule.pattern, (match) => (rule.accept && !rule.accept(match) ? match : `[REDACTED:${rule.name}]`));
    }
    if (this.keyHint?.test(out)) {
      out = out.replace(KEY_VALUE, (match, quote: string, key: string, separator: string, value: string) =>
        this.isSensitiveKey(key) ? `${quote}${key}${quote}${separator}${value.startsWith('"') ? '"[REDACTED]"' : "[REDACTED]"}` : match,
      );
    }
    return out;
  }

  isSensitiveKey(key: string): boolean {
    if (!this.redacting) return false;
    const normalized = normalizeKey(key);
    for (const matcher of this.keyMatchers) if (normalized === matcher || normalized.endsWith(matcher)) return true;
    return false;
  }

  private walk(value: unknown, path: string[], redacted: string[], seen: Set<object>, depth: number): unknown {
    switch (typeof value) {
      case "string": {
        const clean = this.redactString(value);
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
      if (ArrayBuffer.isView(object)) return binaryToJson(object);
      if (object instanceof Map) return this.walkEntries(Array.from(object.entries(), ([k, v]) => [String(k), v]), path, redacted, seen, depth);
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
      if (item !== undefined && item !== null && typeof item !== "function" && this.isSensitiveKey(key)) {
        out[key] = "[REDACTED]";
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

/** `key: value`, `"key": "value"`, `key=value` inside text. */
const KEY_VALUE = /(["']?)([A-Za-z][A-Za-z0-9_-]{0,63})\1(\s*[:=]\s*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s,;&"'}\]]+)/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, "");
}

/** An Error as data, with the fields harnessx errors carry. */
export function errorToJson(error: Error): Record<string, unknown> {
  const fields = error as Error & { code?: unknown; kind?: unknown; status?: unknown; cause?: unknown };
  const out: Record<string, unknown> = { name: error.name, message: error.message };
  if (fields.code !== undefined) out.code = fields.code;
  if (fields.kind !== undefined) out.kind = fields.kind;
  if (fields.status !== undefined) out.status = fields.status;
  if (error.stack !== undefined) out.stack = error.stack;
  if (fields.cause !== undefined) out.cause = fields.cause instanceof Error ? { name: fields.cause.name, message: fields.cause.message } : fields.cause;
  return out;
}

function binaryToJson(view: ArrayBufferView): Record<string, unknown> {
  const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  return { type: view.constructor.name, bytes: bytes.byteLength, base64: bytes.toString("base64") };
}
