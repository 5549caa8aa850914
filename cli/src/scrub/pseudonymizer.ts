import type { ScrubRules } from "./rules.js";

/** What a scrub replaced: counts per rule, and (kept in memory only) each pseudonym's original. */
export interface ScrubStats {
  /** Replacements per rule name (pattern name, `key:<name>` or `kind:<kind>`). */
  replaced: Record<string, number>;
  /** Distinct original values replaced. */
  distinct: number;
}

/** The card-number checksum: keeps long digit runs that are not card numbers out of the scrub. */
function passesLuhn(text: string): boolean {
  const digits = text.replace(/\D/g, "");
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 13 && sum % 10 === 0;
}

/**
 * Replaces sensitive values by pseudonyms such as `<email-1>`: the same original value always gets
 * the same pseudonym within one scrub, so a reader can still follow "the same customer" across
 * events without learning who it is.
 */
export class Pseudonymizer {
  private readonly keys: Set<string>;
  private readonly patterns: Array<{ name: string; regex: RegExp; check?: "luhn" }>;
  private readonly kinds: Set<string>;
  private readonly byValue = new Map<string, string>();
  private readonly counters = new Map<string, number>();
  private readonly replaced: Record<string, number> = {};

  constructor(rules: ScrubRules) {
    this.keys = new Set(rules.keys.map((k) => k.toLowerCase()));
    this.patterns = rules.patterns.map((p) => ({ name: p.name, regex: new RegExp(p.regex, `${(p.flags ?? "").replace(/g/g, "")}g`), check: p.check }));
    this.kinds = new Set(rules.kinds);
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

  private count(rule: string): void {
    this.replaced[rule] = (this.replaced[rule] ?? 0) + 1;
  }

  /** Whether an event of this kind loses its whole payload. */
  dropsKind(kind: string): boolean {
    return this.kinds.has(kind);
  }

  /** Records that a payload of `kind` was removed, and returns its replacement. */
  removedPayload(kind: string): string {
    this.count(`kind:${kind}`);
    return `<removed:${kind}>`;
  }

  /** Pattern replacements inside one string; pseudonyms already placed are left alone. */
  scrubString(text: string): string {
    let out = text;
    for (const { name, regex, check } of this.patterns) {
      out = out.replace(regex, (match) => {
        if (/^<[A-Za-z0-9_.:-]+-\d+>$/.test(match)) return match;
        if (check === "luhn" && !passesLuhn(match)) return match;
        this.count(name);
        return this.pseudonym(name, match);
      });
    }
    return out;
  }

  /** A deep copy of a JSON value with every rule applied. */
  scrubValue(value: unknown): unknown {
    if (typeof value === "string") return this.scrubString(value);
    if (Array.isArray(value)) return value.map((v) => this.scrubValue(v));
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value)) {
        const label = key.toLowerCase();
        if (this.keys.has(label) && v !== null && v !== undefined && v !== "") {
          this.count(`key:${label}`);
          out[key] = this.pseudonym(label.replace(/[^a-z0-9_.-]/g, "_"), typeof v === "string" ? v : JSON.stringify(v));
        } else out[key] = this.scrubValue(v);
      }
      return out;
    }
    return value;
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
