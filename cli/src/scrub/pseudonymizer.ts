import { Redactor, luhnValid, type RedactionOptions, type RedactionPattern } from "@harnessx/core/extension";
import type { ScrubRules } from "./rules.js";

/** What a scrub replaced: counts per rule, and (kept in memory only) each pseudonym's original. */
export interface ScrubStats {
  /** Replacements per rule name (pattern or shape name, `key:<name>` or `kind:<kind>`). */
  replaced: Record<string, number>;
  /** Distinct original values replaced. */
  distinct: number;
}

const PSEUDONYM = /^<[A-Za-z0-9_.:-]+-\d+>$/;

/**
 * Replaces sensitive values by pseudonyms such as `<email-1>`: the same original value always gets
 * the same pseudonym within one scrub, so a reader can still follow "the same customer" across
 * events without learning who it is. What counts as sensitive is the product's one redaction
 * policy (the recorder's and exporters' too), plus the rules file's keys and patterns.
 */
export class Pseudonymizer {
  private readonly redactor: Redactor;
  private readonly kinds: Set<string>;
  private readonly byValue = new Map<string, string>();
  private readonly counters = new Map<string, number>();
  private readonly replaced: Record<string, number> = {};

  constructor(rules: ScrubRules) {
    const patterns: RedactionPattern[] = rules.patterns.map((p) => ({
      name: p.name,
      pattern: new RegExp(p.regex, `${(p.flags ?? "").replace(/g/g, "")}g`),
      ...(p.check === "luhn" ? { accept: luhnValid } : {}),
    }));
    const policy: RedactionOptions = rules.defaults
      ? { extraKeys: rules.keys, extraPatterns: patterns }
      : { keys: rules.keys, patterns, secretShapes: false };
    this.redactor = new Redactor(policy, {
      shape: (name, found) => (PSEUDONYM.test(found) ? found : this.replace(name, name, found)),
      key: (key, found) =>
        this.replace(`key:${key.toLowerCase()}`, key.toLowerCase().replace(/[^a-z0-9_.-]/g, "_"), found),
    });
    this.kinds = new Set(rules.kinds);
  }

  private replace(rule: string, label: string, original: string): string {
    this.replaced[rule] = (this.replaced[rule] ?? 0) + 1;
    return this.pseudonym(label, original);
  }

  /** The pseudonym of `original` under `label`, the same one every time. */
  pseudonym(label: string, original: string): string {
    const key = `${label}\u0000${original}`;
    let alias = this.byValue.get(key);
    if (alias === undefined) {
      const n = (this.counters.get(label) ?? 0) + 1;
      this.counters.set(label, n);
      alias = `<${label}-${n}>`;
      this.byValue.set(key, alias);
    }
    return alias;
  }

  /** Whether an event of this kind loses its whole payload. */
  dropsKind(kind: string): boolean {
    return this.kinds.has(kind);
  }

  /** Records that a payload of `kind` was removed, and returns its replacement. */
  removedPayload(kind: string): string {
    this.replaced[`kind:${kind}`] = (this.replaced[`kind:${kind}`] ?? 0) + 1;
    return `<removed:${kind}>`;
  }

  /** Replacements inside one string (JSON text inside it included); pseudonyms already placed are left alone. */
  scrubString(text: string): string {
    return this.redactor.redactText(text);
  }

  /** A deep copy of a JSON value with every rule applied: the same shape, strings replaced by strings. */
  scrubValue<T>(value: T): T {
    return this.redactor.redact(value, "", []) as T;
  }

  stats(): ScrubStats {
    return { replaced: { ...this.replaced }, distinct: this.byValue.size };
  }

  /** Pseudonym -> original, for the separate local mapping file a user may ask for. */
  mapping(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, alias] of this.byValue) out[alias] = key.slice(key.indexOf("\u0000") + 1);
    return out;
  }
}
