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
  private readonly keyHint: RegExp | undefined;
  private readonly redacting: boolean;
  /** Object keys repeat endlessly (`toolCall`, `content`...): their verdict is computed once. */
  private readonly keyVerdicts = new Map<string, boolean>();
  private readonly shortest: number;
  private readonly textKeys: string[];
  /** `_key`, `-key`...: a separated spelling of a key (`api_key`) contains one of them. */
  private readonly separatedTails: string[];
  /** Reused by `toJson` (not re-entrant) to spare an allocation per event. */
  private readonly parents = new Map<object, [object, string]>();

  constructor(rules: RedactionRules | false) {
    this.redacting = rules !== false;
    this.keyMatchers = rules === false ? [] : rules.keys.map(normalizeKey);
    this.patterns = rules === false ? [] : rules.patterns;

    // Sensitive keys inside text (JSON in a tool result, "Authorization: ..." header lines):
    // a text holding a separator and a key stem has its `key: value` pairs checked one by one.
    const stems = this.keyMatchers.map((key) => key.split("").map(escapeRegExp).join("[-_]?")).join("|");
    this.keyHint = stems ? new RegExp(stems, "i") : undefined;
    this.shortest = Math.min(6, ...this.keyMatchers.map((k) => k.length + 2));
    // For scanning text, a key that ends with another key adds nothing (`accesstoken` ends with `token`).
    this.textKeys = this.keyMatchers.filter((key) => !this.keyMatchers.some((other) => other !== key && key.endsWith(other)));
    this.separatedTails = [...new Set(this.textKeys.flatMap((k) => ["_", "-"].map((sep) => sep + k.slice(-3))))];
    // Over a whole JSON text: any pattern trigger, or a sensitive key followed by `":`, `\":`, `:` or `=`
    // (`"maxTokens":` does not match `token"`).

  }

  /** `path` names the root (e.g. "payload"); paths of redactions are appended to `redactedPaths`. */
  sanitize(value: unknown, path: string, redactedPaths: string[]): unknown {
    return this.walk(value, [path], redactedPaths, new Set(), 0);
  }

  /**
   * Serializes to a JSON string with the same guarantees as `sanitize`, letting the native
   * JSON.stringify do the walking (the recorder's hot path). Falls back to `sanitize` when the
   * value holds a cycle.
   */
  toJson(value: unknown, path: string, redactedPaths: string[], plainData = false): string | undefined {
    if (plainData) {
      const fast = this.plainJson(value);
      if (fast !== undefined) return fast;
    }
    const parents = this.parents;
    parents.clear();
    const pathOf = (holder: object, key: string): string => {
      const parts = [key];
      for (let at = parents.get(holder); at; at = parents.get(at[0])) parts.push(at[1]);
      return parts.reverse().join(".");
    };
    const sanitizer = this;
    const collected: string[] = [];
    function replacer(this: object, key: string, item: unknown): unknown {
      if (key !== "" && item !== null && item !== undefined && typeof item !== "function" && !Array.isArray(this) && sanitizer.isSensitiveKey(key)) {
        collected.push(pathOf(this, key));
        return "[REDACTED]";
      }
      if (typeof item === "string") {
        const clean = sanitizer.redactString(item);
        if (clean !== item) collected.push(pathOf(this, key));
        return clean;
      }
      if (typeof item === "bigint") return item.toString();
      if (typeof item !== "object" || item === null) return item;
      const plain = item instanceof Error ? errorToJson(item) : item instanceof Map ? Object.fromEntries(item) : item instanceof Set ? Array.from(item) : ArrayBuffer.isView(item) ? binaryToJson(item) : item;
      if (key !== "") parents.set(plain, [this, key]);
      return plain;
    }
    try {
      const json = JSON.stringify({ [path]: value }, replacer);
      redactedPaths.push(...collected);
      // `{"<path>":<value>}` -> `<value>`; the wrapper gives the root a key for redacted paths.
      return json.slice(JSON.stringify(path).length + 2, -1) || undefined;
    } catch {
      const clean = this.sanitize(value, path, redactedPaths);
      return clean === undefined ? undefined : JSON.stringify(clean);
    } finally {
      parents.clear();
    }
  }

  /**
   * The common case at native speed: data without Errors, Maps, binary, BigInt or cycles, and
   * without anything redaction could touch, serializes as is. Undefined when it might need
   * the careful path.
   */
  private plainJson(value: unknown): string | undefined {
    const json = this.structuralJson(value);
    return json === undefined || this.mightRedact(json) ? undefined : json;
  }

  /**
   * Native JSON of plain data, or undefined when the value may hold what only the careful path
   * renders right (a cycle or BigInt throws; an empty `{}` may be an Error or a Map; `{"0":` a
   * typed array). Not redacted: check the text with `mightRedact` before using it.
   */
  structuralJson(value: unknown): string | undefined {
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      return undefined;
    }
    if (json === undefined || json.includes("{}") || json.includes('{"0":')) return undefined;
    return json;
  }

  /** True when redaction might change something in this JSON text (a sensitive key or a pattern). */
  mightRedact(json: string): boolean {
    if (!this.redacting) return false;
    const lower = json.toLowerCase();
    return this.keyInText(lower) || this.anyPatternMatches(json, lower);
  }

  /**
   * True when the text may hold a sensitive key used as one (`"apiKey":`, `\"token\":`,
   * `password=`): searched in a lower-cased copy without `-`/`_` with plain indexOf, which is far
   * cheaper than a regex with optional separators. `"maxTokens":` does not count as `token`.
   */
  private keyInText(lower: string): boolean {
    if (this.keysUsedIn(lower)) return true;
    // Separated spellings (`api_key`, `x-api-key`) only matter when some key's ending is there.
    if (!this.separatedTails.some((tail) => lower.includes(tail))) return false;
    return this.keysUsedIn(lower.replace(/[-_]/g, ""));
  }

  private keysUsedIn(text: string): boolean {
    for (const key of this.textKeys) {
      for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1)) {
        const next = text.charCodeAt(at + key.length);
        // " ' \ : = space
        if (next === 34 || next === 39 || next === 92 || next === 58 || next === 61 || next === 32) return true;
      }
    }
    return false;
  }

  /** True when some pattern would redact something in the text (its `accept` check included). */
  private anyPatternMatches(text: string, lower: string): boolean {
    for (const rule of this.patterns) {
      if (!hinted(rule, text, lower)) continue;
      rule.pattern.lastIndex = 0;
      for (const match of text.matchAll(rule.pattern)) if (!rule.accept || rule.accept(match[0])) return true;
    }
    return false;
  }


  /** Redacts one string; returns it unchanged when nothing matched. */
  redactString(text: string): string {
    if (!this.redacting || text.length < this.shortest) return text;
    let out = text;
    const lower = text.toLowerCase();
    {
      for (const rule of this.patterns) {
        if (!hinted(rule, text, lower)) continue;
        rule.pattern.lastIndex = 0;
        out = out.replace(rule.pattern, (match) => (rule.accept && !rule.accept(match) ? match : `[REDACTED:${rule.name}]`));
      }
    }
    if ((out.includes(":") || out.includes("=")) && this.keyHint?.test(out)) {
      out = out.replace(KEY_VALUE, (match, quote: string, key: string, separator: string, value: string) =>
        this.isSensitiveKey(key) ? `${quote}${key}${quote}${separator}${value.startsWith('"') ? '"[REDACTED]"' : "[REDACTED]"}` : match,
      );
    }
    return out;
  }

  isSensitiveKey(key: string): boolean {
    if (!this.redacting) return false;
    let verdict = this.keyVerdicts.get(key);
    if (verdict === undefined) {
      const normalized = normalizeKey(key);
      verdict = this.keyMatchers.some((matcher) => normalized === matcher || normalized.endsWith(matcher));
      if (this.keyVerdicts.size < 10_000) this.keyVerdicts.set(key, verdict);
    }
    return verdict;
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

/** False when the pattern's cheap pre-check rules a match out. */
function hinted(rule: RedactionPattern, text: string, lower: string): boolean {
  const hint = rule.hint;
  if (hint === undefined) {
    rule.pattern.lastIndex = 0;
    return rule.pattern.test(text);
  }
  if (typeof hint === "function") return hint(lower);
  for (const literal of hint) if (lower.includes(literal)) return true;
  return false;
}

/** `key: value`, `"key": "value"`, `key=value` inside text; an unquoted value runs to the end of the line (header values have spaces). */
const KEY_VALUE = /(["']?)([A-Za-z][A-Za-z0-9_-]{0,63})\1(\s*[:=]\s*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s,;&"'}\]][^\r\n,;&"'}\]]*)/g;

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
