import { cutWithSecrets, mergeSecretSpans, type SecretSpan } from "./cuts.js";
import { detect, patternDetector, replaceAndPlace, replaceSpans } from "./detector.js";
import { DetectorSet } from "./detector-set.js";
import type { HintScan } from "./hint-scanner.js";
import { RedactionMemo } from "./redaction-memo.js";
import { hidesValue, KeyNames, PLAIN } from "./key-names.js";
import { clearOfReplaced } from "./replaced-regions.js";
import { keyValueSpans } from "./key-values.js";
import { KnownKeys } from "./known-keys.js";
import { redactNestedJson } from "./nested-json.js";
import { resolveRedaction, type RedactionDescription, type RedactionOptions } from "./rules.js";
import { redactValue } from "./redact-value.js";
import { REDACTED, type Replacements } from "./replacements.js";
import { SECRET_SHAPES } from "./secret-shapes.js";
import { redactedJson, structuralJsonOf } from "./to-json.js";
import { deepFreeze } from "../util/deep-freeze.js";

/** Deeper plain data takes the careful path (which cuts values nested past its own limit). */
const MAX_CLEAN_DEPTH = 60;

/** A command-line option as an argument of its own (`["--password", "v"]`): the next argument is its value. */
const OPTION = /^--?([A-Za-z][\w-]{1,63})$/;

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
  readonly #keyNames: KeyNames;
  /** One pass finds every detector hint literal and every sensitive key used as one. */
  readonly #detectors: DetectorSet;
  readonly #redacting: boolean;
  readonly #knownKeys: KnownKeys;
  readonly #shortest: number;
  /** Reused by `redactToJson` (not re-entrant) to spare an allocation per event. */
  readonly #parents = new Map<object, [object, string]>();
  /** Texts already redacted: each distinct string is scanned once while it is remembered. */
  readonly #memo = new RedactionMemo();

  readonly #description: RedactionDescription | "off";

  readonly #replace: Replacements;

  constructor(options?: RedactionOptions | false, replacements: Replacements = REDACTED) {
    this.#replace = replacements;
    const rules = resolveRedaction(options);
    this.#redacting = rules !== false;
    this.#keyNames = new KeyNames(rules === false ? [] : rules.keys);
    this.#knownKeys = new KnownKeys(this.#keyNames);
    this.#description =
      rules === false
        ? "off"
        : deepFreeze({
            keys: [...rules.keys],
            patterns: rules.patterns.map((p) => ({ name: p.name, source: p.pattern.source })),
            secretShapes: rules.secretShapes ? [...new Set(SECRET_SHAPES.map((d) => d.name))] : [],
          });

    this.#shortest = this.#keyNames.shortest();
    const detectors =
      rules === false ? [] : [...rules.patterns.map(patternDetector), ...(rules.secretShapes ? SECRET_SHAPES : [])];
    this.#detectors = new DetectorSet(detectors, this.#keyNames.textNames(), this.#keyNames.strictNames());
    // Shared by the recorder, spills and exporters: nobody may switch it off or swap its rules.
    // Its state is private (#) and its prototype frozen below, so nothing reached through an
    // extension's `ctx.redactor` can change what it redacts, for this agent or any other.
    Object.freeze(this);
  }

  /** False for a policy that redacts nothing. */
  get enabled(): boolean {
    return this.#redacting;
  }

  /**
   * The policy as plain data, as recorded in `run.json` and bundle manifests: for people to read.
   * No reader rebuilds a policy from it (a recording's pattern sources are never compiled, since a
   * hostile one could hang the reader); each applies its own.
   */
  describe(): RedactionDescription | "off" {
    return this.#description;
  }

  /** `path` names the root (e.g. "payload"); paths of redactions are appended to `redactedPaths`. */
  redact(value: unknown, path: string, redactedPaths: string[]): unknown {
    return redactValue(this, this.#replace, value, path, redactedPaths);
  }

  /**
   * Serializes to a JSON string with the same guarantees as `redact`, letting the native
   * JSON.stringify do the walking. Falls back to `redact` when the value holds a cycle.
   */
  redactToJson(value: unknown, path: string, redactedPaths: string[]): string | undefined {
    try {
      return redactedJson(this, this.#replace, value, path, redactedPaths, this.#parents);
    } catch {
      const clean = this.redact(value, path, redactedPaths);
      return clean === undefined ? undefined : JSON.stringify(clean);
    }
  }

  /**
   * The common case at native speed (the recorder's hot path): the JSON of plain data (no
   * Errors, Maps, binary, BigInt, cycles or `toJSON`) in which redaction would change nothing.
   * Undefined otherwise: then use `redactToJson`.
   */
  jsonIfClean(value: unknown): string | undefined {
    if (!this.#redacting) return structuralJsonOf(value);
    // The walk first: a value that needs redacting is then not serialized twice. The walk also
    // checks every object is plain, so the JSON needs no second look (an Error or a Map would write `{}`).
    if (!this.#isClean(value, 0)) return undefined;
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
  #isClean(value: unknown, depth: number): boolean {
    if (typeof value === "string") return value.length < this.#shortest || this.redactText(value) === value;
    if (typeof value !== "object" || value === null) return true;
    if (depth > MAX_CLEAN_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++)
        if (!this.#isClean(value[i], depth + 1) || (i > 0 && this.hidesArgument(value[i - 1], value[i]))) return false;
      return true;
    }
    // Errors, Maps, Sets, typed arrays and class instances render right only on the careful path.
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return false;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined || item === null || typeof item === "function") continue;
      const known = this.#knownKeys.get(key);
      if (
        hidesValue(known.kind, item) ||
        (key.length >= this.#shortest && (known.clean ??= this.redactText(key)) !== key)
      )
        return false;
      if (!this.#isClean(item, depth + 1)) return false;
    }
    return true;
  }

  /**
   * Redacts one string; returns it unchanged when nothing matched. Secret shapes become
   * `[REDACTED:<shape>]`; values of sensitive keys `[REDACTED]`, inside JSON text by parsing it
   * (so an encoding nested in a string is redacted too), else by scanning `key: value` forms.
   */
  redactText(text: string): string {
    if (!this.#redacting || text.length < this.#shortest) return text;
    const known = this.#memo.get(text);
    if (known !== undefined) return known;
    const redacted = this.#redactFresh(text);
    this.#memo.set(text, redacted);
    return redacted;
  }

  /**
   * `redactText` for a short text that is new each time (a reply's or a tool call's id): the
   * same result (the memo holds exactly what a scan returns), scanned without a memo lookup or
   * entry, since such a text would only miss in the memo and then take the room of texts that
   * do repeat.
   */
  redactTextOnce(text: string): string {
    if (!this.#redacting || text.length < this.#shortest) return text;
    return this.#redactFresh(text);
  }

  #redactFresh(text: string): string {
    const { lower, scan } = this.#scan(text);
    const spans = detect(this.#detectors.candidates(scan, lower), text);
    const shaped = replaceAndPlace(text, spans, (span, found) => this.#replace.shape(span.name, found));
    let out = shaped.text;
    // A Buffer serialized before it reached redaction (`{"type":"Buffer","data":[...]}`) is parsed, so its text is seen.
    if (!scan.keyUsed && !lower.includes(SERIALIZED_BUFFER)) return out;
    const nested = redactNestedJson(this, out);
    if (nested !== undefined) return nested;
    if (!scan.keyUsed) return out;
    // The key offsets hold in `out` while no shape was replaced before them.
    const found = keyValueSpans(
      out,
      (key) => this.#knownKeys.get(key).kind,
      spans.length === 0 ? scan.keyAt : undefined,
    );
    const keyed = spans.length === 0 ? found : clearOfReplaced(found, shaped.regions);
    if (keyed.length)
      out = replaceSpans(out, detect([{ name: "key", find: () => keyed }], out), (span, found) =>
        this.#replace.key(span.name, found),
      );
    return out;
  }

  /** The hints of a text, read in its lower-cased form. */
  #scan(text: string): { lower: string; scan: HintScan } {
    const lower = text.toLowerCase();
    const scan = this.#detectors.scan(lower);
    // Lower-casing can lengthen a text (`İ` becomes two characters): the key offsets the scan read
    // in it then do not hold in the text, which is searched whole instead.
    return { lower, scan: lower.length === text.length ? scan : { ...scan, keyAt: undefined } };
  }

  /**
   * Where this policy replaces text in `text`, read as text (secret shapes, values of sensitive
   * keys), in order and not overlapping. For cuts of a text too large to redact as a whole each
   * time it is cut (`redactCut`).
   */
  secretSpans(text: string): SecretSpan[] {
    if (!this.#redacting || text.length < this.#shortest) return [];
    const { lower, scan } = this.#scan(text);
    const found: SecretSpan[] = detect(this.#detectors.candidates(scan, lower), text).map((s) => ({
      start: s.start,
      end: s.end,
      name: s.name,
      anchor: s.start,
      keyed: false,
    }));
    if (scan.keyUsed)
      for (const s of keyValueSpans(text, (key) => this.#knownKeys.get(key).kind, scan.keyAt))
        found.push({
          start: s.start,
          end: s.end,
          name: s.name,
          anchor: Math.min(s.anchor ?? s.start, s.start),
          keyed: true,
        });
    return mergeSecretSpans(found);
  }

  /**
   * `text.slice(from, to)` as a cut safe to show on its own: each secret of `spans` (default: the
   * whole text's, see `secretSpans`) that the cut splits, or shows without what identifies it (a
   * value without its key, key lines without their BEGIN line), is replaced in the cut, since
   * alone it would not be recognized. A secret the cut shows whole with its anchor stays, for
   * whoever shows the cut to redact as usual. Spans may reach outside the cut (offsets below
   * `from` or past `to`).
   */
  redactCut(text: string, from: number, to: number, spans: readonly SecretSpan[] = this.secretSpans(text)): string {
    return this.#redacting ? cutWithSecrets(text, from, to, spans, this.#replace) : text.slice(from, to);
  }

  /**
   * True when values of an object key of this name are replaced (see `RedactionRules.keys`): all
   * of them, or (plural names, `auth`) those that are not counts or plain words; always false
   * when the policy is off.
   */
  isSensitiveKey(key: string): boolean {
    return this.#redacting && this.#knownKeys.get(key).kind !== PLAIN;
  }

  /** True when `value`, under the object key `key`, is replaced (see `isSensitiveKey`). */
  hidesValue(key: string, value: unknown): boolean {
    return this.#redacting && hidesValue(this.#knownKeys.get(key).kind, value);
  }

  /** An object key as written out: a key that is itself a secret (a token used as a map key) is redacted like any text. */
  redactKey(key: string): string {
    if (!this.#redacting || key.length < this.#shortest) return key;
    const known = this.#knownKeys.get(key);
    return (known.clean ??= this.redactText(key));
  }

  /**
   * True when `value` is the argument of a sensitive command-line option given as the argument
   * before it (`["--password", "hunter2"]`, `["-token", "..."]`), as argv arrays hold them.
   */
  hidesArgument(previous: unknown, value: unknown): boolean {
    if (!this.#redacting || typeof previous !== "string" || previous.charCodeAt(0) !== 45 || typeof value !== "string")
      return false;
    const option = OPTION.exec(previous);
    return option !== null && !option[1].startsWith("no-") && hidesValue(this.#keyNames.kindOf(option[1]), value);
  }
}

Object.freeze(Redactor.prototype);

/** How a serialized Buffer starts, lower-cased. */
const SERIALIZED_BUFFER = '"type":"buffer","data":[';
