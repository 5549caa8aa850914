import { deepFreeze } from "../util/deep-freeze.js";

/** A value pattern to replace wherever it appears inside a string. */
export interface RedactionPattern {
  /** Short label written in the replacement: `[REDACTED:<name>]`. */
  name: string;
  /** Must be global (`g`); matches are replaced. */
  pattern: RegExp;
  /**
   * A cheap pre-check every match passes, so most text skips the pattern: lower-case literals of
   * which a match contains one (checked against the lower-cased text), or a function of the
   * lower-cased text. Default: the pattern itself.
   */
  hint?: readonly string[] | ((lowerText: string) => boolean);
  /** Extra check on a match. */
  accept?: (match: string) => boolean;
  /** The part of a match that is the secret (offsets into the match), or undefined for none of it. */
  locate?: (match: string) =>
    | {
        /** Offset of the secret's first character in the match. */
        start: number;
        /** Offset just past the secret's last character in the match. */
        end: number;
      }
    | undefined;
}

/** What redaction does: the resolved policy. */
export interface RedactionRules {
  /**
   * Object keys whose values are always replaced, also as `key: value` / `key=value` inside text.
   * Compared lower-cased without `-`, `_` and spaces; a key also matches when it ends with one of
   * them (`openaiApiKey`, `clientSecret`, `aws_secret_access_key`).
   */
  keys: readonly string[];
  /** Value shapes replaced inside any string, besides the maintained secret shapes. */
  patterns: readonly RedactionPattern[];
  /**
   * Detect the maintained secret shapes: the secretlint recommended preset (cloud, SaaS and VCS
   * tokens, private keys, connection strings) and harnessx's own (private keys cut short and key
   * lines without a header, vendor tokens the preset leaves out, credentials in URLs and command lines).
   */
  secretShapes: boolean;
}

/** The policy as options: replace or extend the defaults, or `false` for none. */
export interface RedactionOptions {
  /** Replaces the default sensitive keys (see `DEFAULT_SENSITIVE_KEYS`). */
  keys?: readonly string[];
  /** Added to the sensitive keys instead of replacing them. */
  extraKeys?: readonly string[];
  /** Replaces the default value patterns (see `DEFAULT_PATTERNS`). */
  patterns?: readonly RedactionPattern[];
  /** Added to the value patterns instead of replacing them. */
  extraPatterns?: readonly RedactionPattern[];
  /** Default true: the maintained secret shapes (secretlint's recommended preset and harnessx's own). */
  secretShapes?: boolean;
}

/**
 * Keys whose values are secrets whatever they look like. A key also matches in the plural
 * (`passwords`, `apiKeys`, `tokens`), where a count (`inputTokens: 128`) is not a secret; `auth`
 * hides only values that are base64 of `user:password` (Docker's `auths.*.auth`), not a word
 * like `auth: basic`.
 */
export const DEFAULT_SENSITIVE_KEYS: readonly string[] = [
  "authorization",
  "auth",
  "proxyauthorization",
  "apikey",
  "apisecret",
  "appkey",
  "adminkey",
  "authkey",
  "accountkey",
  "sharedaccesskey",
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "secret",
  "secretkey",
  "secretaccesskey",
  "privatekey",
  "signingkey",
  "encryptionkey",
  "masterkey",
  "secretkeybase",
  "token",
  "credential",
  "credentials",
  "cookie",
  "dsn",
  "connectionstring",
];

/** The Luhn checksum of the digits in `candidate` (13 to 19 of them): what tells a card number from an id. */
export function luhnValid(candidate: string): boolean {
  const digits = candidate.replace(/[^0-9]/g, "");
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * A card number inside a run of digit groups (`95 4111 1111 1111 1111 5`): 13-19 digits that pass
 * the Luhn check, the longest first, printed as cards are: one unbroken group, or groups that
 * start with four digits and continue in groups of three to six (4-4-4-4, Amex 4-6-5, Diners
 * 4-6-4, 4-4-4-4-3). Other runs of numbers (`76864 13376 51584` in a table or a log) are data,
 * and one in ten of them would pass the checksum by chance.
 */
function cardIn(run: string): { start: number; end: number } | undefined {
  if (run.length < 13) return undefined;
  const groups = [...run.matchAll(/\d+/g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    digits: m[0].length,
  }));
  let best: { start: number; end: number; digits: number } | undefined;
  for (let i = 0; i < groups.length; i++) {
    const whole = groups[i].digits >= 13;
    if (!whole && groups[i].digits !== 4) continue;
    let digits = 0;
    for (let j = i; j < groups.length && digits < 19; j++) {
      if (j > i && (whole || groups[j].digits < 3 || groups[j].digits > 6)) break;
      digits += groups[j].digits;
      if (digits < 13 || digits > 19) continue;
      const window = run.slice(groups[i].start, groups[j].end);
      if ((!best || digits > best.digits) && luhnValid(window))
        best = { start: groups[i].start, end: groups[j].end, digits };
    }
  }
  return best;
}

/** True when the text has 13 digits in a row, single spaces or dashes allowed between them. */
function hasDigitRun(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++digits >= 13) return true;
    } else if (
      !(
        (c === 32 || c === 45) &&
        digits > 0 &&
        i + 1 < text.length &&
        text.charCodeAt(i + 1) >= 48 &&
        text.charCodeAt(i + 1) <= 57
      )
    )
      digits = 0;
  }
  return false;
}

/**
 * Shapes the maintained preset leaves out on purpose (it avoids false positives in source code;
 * a flight recorder prefers to over-redact): bearer tokens anywhere, provider-style keys without
 * a checksum marker, AWS access key ids, Google API keys, JWTs, emails, card numbers.
 */
export const DEFAULT_PATTERNS: readonly RedactionPattern[] = [
  { name: "bearer", pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, hint: ["bearer"] },
  {
    name: "api_key",
    pattern: /\b(?:sk|pk|rk)[-_](?:[A-Za-z0-9]+[-_])*[A-Za-z0-9_-]{16,}/g,
    hint: ["sk-", "pk-", "rk-", "sk_", "pk_", "rk_"],
  },
  {
    name: "aws_key",
    pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[0-9A-Z]{16}\b/g,
    hint: ["akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "a3t"],
  },
  { name: "google_key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, hint: ["aiza"] },
  { name: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, hint: ["eyj"] },
  // Not the user or password of a URL (`https://deploy@git.example.com`, `amqp://u:pw@host`): a login, not an address.
  { name: "email", pattern: /(?<!:\/\/[^\s/@]*)\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g, hint: ["@"] },
  { name: "card", pattern: /\b\d+(?:[ -]\d+)*\b/g, hint: hasDigitRun, locate: cardIn },
];

/** The policy when none is given: the default keys and patterns, and secret shapes on. */
export const DEFAULT_REDACTION_RULES: RedactionRules = {
  keys: DEFAULT_SENSITIVE_KEYS,
  patterns: DEFAULT_PATTERNS,
  secretShapes: true,
};

// The defaults every new agent starts from, exported for reading: an extension of one agent must
// not be able to empty them for the next (the patterns' RegExp objects are not frozen: lastIndex).
deepFreeze(DEFAULT_REDACTION_RULES);

/** Options to rules: defaults replaced or extended; `false` stays off. */
export function resolveRedaction(options: RedactionOptions | false | undefined): RedactionRules | false {
  if (options === false) return false;
  if (!options) return DEFAULT_REDACTION_RULES;
  return {
    keys: [...(options.keys ?? DEFAULT_SENSITIVE_KEYS), ...(options.extraKeys ?? [])],
    patterns: [...(options.patterns ?? DEFAULT_PATTERNS), ...(options.extraPatterns ?? [])],
    secretShapes: options.secretShapes ?? true,
  };
}

/** The rules as plain data (for `run.json` and bundle manifests). */
export interface RedactionDescription {
  /** The sensitive keys, as configured (not normalized). */
  keys: string[];
  /** The value patterns, in order. */
  patterns: Array<{
    /** The pattern's label (`[REDACTED:<name>]`). */
    name: string;
    /** The regular expression's source text, without flags. */
    source: string;
  }>;
  /** Names of the maintained secret shapes detected; empty when secret shapes are off. */
  secretShapes: string[];
}
