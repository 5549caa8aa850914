import { readFileSync } from "node:fs";
import { invalidInput } from "../errors.js";

/** A pattern whose matches are replaced by `<name-N>` pseudonyms. */
export interface PatternRule {
  name: string;
  /** A JavaScript regular expression source. */
  regex: string;
  /** Extra flags; `g` is always added. */
  flags?: string;
  /** A check a match must also pass: `luhn` for card numbers (so timestamps and ids are left alone). */
  check?: "luhn";
}

/**
 * What `trace scrub` replaces by pseudonyms: the redaction policy of the whole product (its
 * sensitive keys, value patterns and secret shapes, when `defaults` is true) plus the rules of a
 * file. In a rules file (JSON) every field is optional; the defaults apply unless
 * `"replaceDefaults": true`.
 */
export interface ScrubRules {
  /** Object keys (case-insensitive, `-`/`_` ignored, suffixes match) whose value becomes a pseudonym named after the key. */
  keys: string[];
  /** Patterns matched inside every string. */
  patterns: PatternRule[];
  /** Event kinds whose whole payload is removed. */
  kinds: string[];
  /** Also apply the product's default keys, patterns and secret shapes. */
  defaults: boolean;
}

/** Beyond the product's redaction defaults, a shared bundle also hides where hosts are. */
export const DEFAULT_SCRUB_RULES: ScrubRules = {
  keys: [],
  patterns: [{ name: "ipv4", regex: "\\b(?:(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)\\b" }],
  kinds: [],
  defaults: true,
};

function stringList(value: unknown, field: string, file: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v === "")) {
    throw invalidInput(`rules file ${file}: "${field}" must be an array of non-empty strings`);
  }
  return value as string[];
}

function patternList(value: unknown, file: string): PatternRule[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw invalidInput(`rules file ${file}: "patterns" must be an array of { name, regex, flags? }`);
  return value.map((p: unknown, i) => {
    const rule = p as Partial<PatternRule> | null;
    if (
      !rule ||
      typeof rule.name !== "string" ||
      !/^[A-Za-z0-9_.-]+$/.test(rule.name) ||
      typeof rule.regex !== "string"
    ) {
      throw invalidInput(
        `rules file ${file}: patterns[${i}] needs a "name" (letters, digits, _ . -) and a "regex" string`,
      );
    }
    const flags = typeof rule.flags === "string" ? rule.flags : "";
    try {
      new RegExp(rule.regex, `${flags.replace(/g/g, "")}g`);
    } catch (err) {
      throw invalidInput(
        `rules file ${file}: patterns[${i}] (${rule.name}) is not a valid regular expression: ${(err as Error).message}`,
      );
    }
    if (rule.check !== undefined && rule.check !== "luhn")
      throw invalidInput(
        `rules file ${file}: patterns[${i}] (${rule.name}) has an unknown check "${String(rule.check)}" (only "luhn")`,
      );
    return { name: rule.name, regex: rule.regex, flags, ...(rule.check ? { check: rule.check } : {}) };
  });
}

/** Reads a rules file, merged with the defaults unless it says `"replaceDefaults": true`. */
export function loadScrubRules(file: string | undefined): ScrubRules {
  if (file === undefined) return DEFAULT_SCRUB_RULES;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    const reason =
      (err as NodeJS.ErrnoException).code === "ENOENT"
        ? "does not exist"
        : `is not valid JSON (${(err as Error).message})`;
    throw invalidInput(`rules file ${file} ${reason}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw invalidInput(`rules file ${file} must hold a JSON object { keys, patterns, kinds }`);
  const raw = parsed as Record<string, unknown>;
  const known = new Set(["keys", "patterns", "kinds", "replaceDefaults"]);
  const unknown = Object.keys(raw).filter((k) => !known.has(k));
  if (unknown.length)
    throw invalidInput(
      `rules file ${file}: unknown field ${unknown.map((k) => `"${k}"`).join(", ")} (expected keys, patterns, kinds, replaceDefaults)`,
    );
  const own: ScrubRules = {
    keys: stringList(raw.keys, "keys", file),
    patterns: patternList(raw.patterns, file),
    kinds: stringList(raw.kinds, "kinds", file),
    defaults: false,
  };
  if (raw.replaceDefaults === true) return own;
  return {
    keys: [...DEFAULT_SCRUB_RULES.keys, ...own.keys],
    patterns: [
      ...DEFAULT_SCRUB_RULES.patterns.filter((d) => !own.patterns.some((p) => p.name === d.name)),
      ...own.patterns,
    ],
    kinds: [...DEFAULT_SCRUB_RULES.kinds, ...own.kinds],
    defaults: true,
  };
}
