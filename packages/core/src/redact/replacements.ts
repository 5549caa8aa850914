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

/** The replacements a `Redactor` uses unless given others: `[REDACTED:<shape>]` and `[REDACTED]`. */
export const REDACTED: Replacements = { shape: (name) => `[REDACTED:${name}]`, key: () => "[REDACTED]" };
