import { detect, patternDetector, replaceSpans, type Detector } from "./detector.js";
import { RedactionMemo } from "./redaction-memo.js";
import { HintScanner, type HintScan } from "./hint-scanner.js";
import { keyValueSpans } from "./key-values.js";
import { resolveRedaction, type RedactionDescription, type RedactionOptions } from "./rules.js";
import { sanitizeValue } from "./sanitize.js";
import { SECRET_SHAPES } from "./secret-shapes.js";
import { redactedJson, structuralJsonOf } from "./to-json.js";

/**
 * What a found secret is replaced by. The defaults write `[REDACTED:<shape>]` and `[REDACTED]`;
 * `trace scrub` writes consistent pseudonyms instead.
 */
export interface Replacements {
  /** A secret shape or pattern named `name` was found. */
  shape(name: string, found: string): string;
  /** The value of the sensitive key `key` (a non-string value arrives as its JSON). */
  key(key: string, found: string): string;
}

const REDACTED: Replacements = { shape: (name) => `[REDACTED:${name}]`, key: () => "[REDACTED]" };

/** Deeper plain data takes the careful path (which cuts values nested past its own limit). */
const MAX_CLEAN_DEPTH = 60;

/** Strings longer than this are not parsed as JSON to redact inside them (the text rules still apply). */
const MAX_NESTED_JSON_CHARS = 4_000_000;

/**
 * The one redaction policy of an agent: everything the recorder writes, spills put in bundles
 * and exporters send passes through it. Turns any value into JSON-safe data in one walk,
 * redacting as it goes: Errors become `{ name, message, code, kind, status, stack }`, cycles
 * `"[Circular]"`, BigInt a decimal string, binary data redacted text or base64 (see
 * `binaryToJson`), Map/Set plain objects/arrays, functions and symbols vanish. Values of
 * sensitive keys (also `key=value` inside text and JSON inside strings) and secret shapes are
 * replaced, and the path of each replacement is appended to `redactedPaths`.
 */
export class Redactor {
  private readonly keyMatchers: string[];
  private readonly detectors: readonly Detector[];
  /** One pass finds every detector hint literal and every sensitive key used as one. */
  private readonly scanner: HintScanner;
  /** For each hint literal (by index), the detectors it wakes. */
  private readonly wakes: Detector[][];
  private readonly redacting: boolean;
  /** Object keys repeat endlessly (`toolCall`, `content`...): their verdict is computed once. */
  private readonly keyVerdicts = new Map<string, boolean>();
  private readonly shortest: number;
  /** Reused by `toJson` (not re-entrant) to spare an allocation per event. */
  private readonly parents = new Map<object, [object, string]>();
  /** Texts already redacted: each distinct string is scanned once while it is remembered. */
  private readonly memo = new RedactionMemo();

  private readonly description: RedactionDescription | "off";

  private readonly replace: Replacements;

  constructor(options?: RedactionOptions | false, replacements: Replacements = REDACTED) {
    this.replace = replacements;
    const rules = resolveRedaction(options);
    this.redacting = rules !== false;
    this.keyMatchers = rules === false ? [] : rules.keys.map(normalizeKey);
    this.detectors = rules === false ? [] : [...rules.patterns.map(patternDetector), ...(rules.secretShapes ? SECRET_SHAPES : [])];
    this.description =
      rules === false
        ? "off"
        : { keys: [...rules.keys], patterns: rules.patterns.map((p) => ({ name: p.name, source: p.pattern.source })), secretShapes: rules.secretShapes ? SECRET_SHAPES.map((d) => d.name) : [] };

    this.shortest = Math.min(6, ...this.keyMatchers.map((k) => k.length + 2));
    // For scanning text, a key that ends with another key adds nothing (`accesstoken` ends with `token`).
    const textKeys = this.keyMatchers.filter((key) => !this.keyMatchers.some((other) => other !== key && key.endsWith(other)));
    const literals = [...new Set(this.detectors.flatMap((d) => (Array.isArray(d.hint) ? d.hint : [])))];
    this.wakes = literals.map((literal) => this.detectors.filter((d) => Array.isArray(d.hint) && d.hint.includes(literal)));
    this.scanner = new HintScanner(literals, textKeys);
    // Shared by the recorder, spills and exporters: nobody may switch it off or swap its rules.
    Object.freeze(this);
  }

  /** False for a policy that redacts nothing. */
  get enabled(): boolean {
    return this.redacting;
  }

  /**
   * The policy as plain data, as recorded in `run.json` and bundle manifests: for people to read.
   * No reader rebuilds a policy from it (a recording's pattern sources are never compiled, since a
   * hostile one could hang the reader); each applies its own.
   */
  describe(): RedactionDescription | "off" {
    return this.description;
  }

  /** `path` names the root (e.g. "payload"); paths of redactions are appended to `redactedPaths`. */
  sanitize(value: unknown, path: string, redactedPaths: string[]): unknown {
    return sanitizeValue(this, this.replace, value, path, redactedPaths);
  }

  /**
   * Serializes to a JSON string with the same guarantees as `sanitize`, letting the native
   * JSON.stringify do the walking. Falls back to `sanitize` when the value holds a cycle.
   */
  toJson(value: unknown, path: string, redactedPaths: string[]): string | undefined {
    return redactedJson(this, this.replace, value, path, redactedPaths, this.parents);
  }

  /**
   * The common case at native speed (the recorder's hot path): the JSON of plain data (no
   * Errors, Maps, binary, BigInt, cycles or `toJSON`) in which redaction would change nothing.
   * Undefined otherwise: then use `toJson`.
   */
  cleanJson(value: unknown): string | undefined {
    if (!this.redacting) return structuralJsonOf(value);
    // The walk first: a value that needs redacting is then not serialized twice. The walk also
    // checks every object is plain, so the JSON needs no second look (an Error or a Map would write `{}`).
    if (!this.isClean(value, 0)) return undefined;
    try {
      return JSON.stringify(value);
    } catch {
      return undefined;
    }
  }

  /**
   * True when the value is plain data (arrays and objects of `Object.prototype` or none), no key
   * of it is sensitive and no string in it needs redacting: the values JSON.stringify writes (own
   * enumerable keys, array items), each text looked up in the memo. A `toJSON` (it could write
   * other data) sends the value to the careful path.
   */
  private isClean(value: unknown, depth: number): boolean {
    if (typeof value === "string") return value.length < this.shortest || this.redactString(value) === value;
    if (typeof value !== "object" || value === null) return true;
    if (depth > MAX_CLEAN_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (!this.isClean(value[i], depth + 1)) return false;
      return true;
    }
    // Errors, Maps, Sets, typed arrays and class instances render right only on the careful path.
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return false;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined || item === null || typeof item === "function") continue;
      if (item !== "" && this.isSensitiveKey(key)) return false;
      if (!this.isClean(item, depth + 1)) return false;
    }
    return true;
  }

  /** The detectors a text may trip: those whose hint literals it holds, whose hint function agrees, or that have no hint. */
  private candidates(scan: HintScan, lower: string): Detector[] {
    const woken = new Set<Detector>();
    for (const id of scan.literals) for (const detector of this.wakes[id]) woken.add(detector);
    return this.detectors.filter((d) => woken.has(d) || d.hint === undefined || (typeof d.hint === "function" && d.hint(lower)));
  }

  /**
   * Redacts one string; returns it unchanged when nothing matched. Secret shapes become
   * `[REDACTED:<shape>]`; values of sensitive keys `[REDACTED]`, inside JSON text by parsing it
   * (so an encoding nested in a string is redacted too), else by scanning `key: value` forms.
   */
  redactString(text: string): string {
    if (!this.redacting || text.length < this.shortest) return text;
    const known = this.memo.get(text);
    if (known !== undefined) return known;
    const redacted = this.redactFresh(text);
    this.memo.set(text, redacted);
    return redacted;
  }

  /**
   * `redactString` for a short text that is new each time (a reply's or a tool call's id): the
   * same result (the memo holds exactly what a scan returns), scanned without a memo lookup or
   * entry, since such a text would only miss in the memo and then take the room of texts that
   * do repeat.
   */
  redactOnce(text: string): string {
    if (!this.redacting || text.length < this.shortest) return text;
    return this.redactFresh(text);
  }

  private redactFresh(text: string): string {
    const lower = text.toLowerCase();
    const scan = this.scanner.scan(lower);
    const spans = detect(this.candidates(scan, lower), text, lower, true);
    let out = replaceSpans(text, spans, (span, found) => this.replace.shape(span.name, found));
    if (!scan.keyUsed) return out;
    const nested = this.redactNestedJson(out);
    if (nested !== undefined) return nested;
    const keyed = keyValueSpans(out, (key) => this.isSensitiveKey(key));
    if (keyed.length) out = replaceSpans(out, detect([{ name: "key", find: () => keyed }], out, "", true), (span, found) => this.replace.key(span.name, found));
    return out;
  }

  /** JSON inside a string, redacted structurally and serialized again; undefined when the text is not JSON. */
  private redactNestedJson(text: string): string | undefined {
    const first = text.trimStart()[0];
    const last = text.trimEnd().at(-1);
    if (text.length > MAX_NESTED_JSON_CHARS || !((first === "{" && last === "}") || (first === "[" && last === "]"))) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    const paths: string[] = [];
    const clean = this.sanitize(parsed, "", paths);
    return paths.length ? JSON.stringify(clean) : text;
  }

  /** True when the values of an object key of this name are replaced (see `RedactionRules.keys`); always false when the policy is off. */
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
}

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, "");
}
