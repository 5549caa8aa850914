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
  /** Extra check on a match (e.g. the Luhn checksum of a card number). */
  accept?: (match: string) => boolean;
}

/** What redaction does, as options and as recorded in bundles. */
export interface RedactionRules {
  /**
   * Object keys whose values are always replaced. Compared lower-cased with `-` and `_`
   * removed; a key also matches when it ends with one of them (`openaiApiKey`, `clientSecret`).
   */
  keys: readonly string[];
  patterns: readonly RedactionPattern[];
}

/** Keys whose values are secrets whatever they look like. */
export const DEFAULT_SENSITIVE_KEYS: readonly string[] = [
  "authorization",
  "proxyauthorization",
  "apikey",
  "xapikey",
  "password",
  "passwd",
  "passphrase",
  "secret",
  "token",
  "accesstoken",
  "refreshtoken",
  "idtoken",
  "sessiontoken",
  "cookie",
  "setcookie",
  "privatekey",
  "credentials",
];

function luhn(candidate: string): boolean {
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

/** True when the text has 13 digits in a row, single spaces or dashes allowed between them. */
function hasDigitRun(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++digits >= 13) return true;
    } else if (!((c === 32 || c === 45) && digits > 0 && i + 1 < text.length && text.charCodeAt(i + 1) >= 48 && text.charCodeAt(i + 1) <= 57)) digits = 0;
  }
  return false;
}

/** API-key shapes (OpenAI/Anthropic, AWS, GitHub, Slack, Google), bearer tokens, emails, card numbers. */
export const DEFAULT_PATTERNS: readonly RedactionPattern[] = [
  { name: "bearer", pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, hint: ["bearer"] },
  { name: "api_key", pattern: /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}/g, hint: ["sk-", "pk-", "rk-"] },
  { name: "aws_key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, hint: ["akia", "asia"] },
  { name: "github_token", pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, hint: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] },
  { name: "slack_token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, hint: ["xox"] },
  { name: "google_key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, hint: ["aiza"] },
  { name: "email", pattern: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g, hint: ["@"] },
  { name: "card", pattern: /\b(?:\d[ -]?){12,18}\d\b/g, hint: hasDigitRun, accept: luhn },
];

export const DEFAULT_REDACTION_RULES: RedactionRules = { keys: DEFAULT_SENSITIVE_KEYS, patterns: DEFAULT_PATTERNS };

/** The rules as plain data (for `manifest.json`). */
export function describeRules(rules: RedactionRules): { keys: string[]; patterns: Array<{ name: string; source: string }> } {
  return { keys: [...rules.keys], patterns: rules.patterns.map((p) => ({ name: p.name, source: p.pattern.source })) };
}
