import { isBasicCredential } from "./credential-forms.js";

/** The key is not sensitive. */
export const PLAIN = 0;
/** Every value of the key is a secret. */
export const SECRET = 1;
/** The plural of a sensitive key (`passwords`, `inputTokens`): a secret unless it is a count. */
export const PLURAL = 2;
/** A key (`auth`) whose value is a secret when it is base64 of `user:password`. */
export const CREDENTIAL = 3;
/** How a key name's values are treated. */
export type KeyKind = typeof PLAIN | typeof SECRET | typeof PLURAL | typeof CREDENTIAL;

/** A version or version range (`1.2.3`, `^0.7.2`, `~1.0.4`, `>= 0.6`, `1.x || 2.x`). */
const VERSION_RANGE = /^\s*(?:(?:[\^~]|[<>]=?|=)?\s*v?\d+(?:\.(?:\d+|x|\*)){1,2}(?:-[\w.]+)?\s*(?:\|\||-|\s)?\s*)+$/;

/** The key that marks credential-only values: `auth: basic` is a word, `auth: dXNlcjpwYXNz` is not. */
const CREDENTIAL_KEY = "auth";

/** A key as compared: lower-case, without `-`, `_`, `.` and spaces (`X-Api-Key`, `db.password`), folded (`foldKeyText`). */
export function normalizeKey(key: string): string {
  return foldKeyText(key.toLowerCase()).replace(/[-_.\s]/g, "");
}

/**
 * A lower-cased text as key names are compared: composed (NFC: `n` and a combining tilde are
 * `ñ`), and the Turkish `İ` (lower-cased to `i` and a combining dot) a plain `i`.
 */
export function foldKeyText(lower: string): string {
  return lower.normalize("NFC").replace(/i\u0307/g, "i");
}

/**
 * The sensitive key names of a policy: a key matches a name it equals or ends with
 * (`clientSecret`, `aws_secret_access_key`), in the singular or the plural.
 */
export class KeyNames {
  private readonly names: string[];

  constructor(keys: readonly string[]) {
    this.names = keys.map(normalizeKey).filter((name) => name.length > 0);
  }

  /** The names to look for in text: one that ends with another adds nothing there (`accesstoken` ends with `token`). */
  textNames(): string[] {
    return this.names.filter((name) => !this.names.some((other) => other !== name && name.endsWith(other)));
  }

  /** The text names used as keys only before `:`, `=`, a quote or `>` (`auth error` is prose, `"auth":` a key). */
  strictNames(): string[] {
    return this.names.filter((name) => name === CREDENTIAL_KEY);
  }

  /** The shortest text that can hold a key and a value (`pwd=x`). */
  shortest(): number {
    return Math.min(6, ...this.names.map((name) => name.length + 2));
  }

  /** How values of `key` are treated (see `KeyKind`). A path (`node_modules/cookie` in a lockfile) names no secret. */
  kindOf(key: string): KeyKind {
    if (key.includes("/")) return PLAIN;
    const normalized = normalizeKey(key);
    let kind: KeyKind = PLAIN;
    // A strong name's plural beats auth's (`oauths` under `oauth` and `auth`), whichever is listed first.
    for (const name of this.names) {
      const strong = name !== CREDENTIAL_KEY;
      if (normalized.endsWith(name)) {
        if (strong) return SECRET;
        kind = CREDENTIAL;
      } else if (normalized.endsWith(`${name}s`) && kind !== PLURAL) kind = strong ? PLURAL : CREDENTIAL;
    }
    return kind;
  }
}

/**
 * Whether a value under a key of `kind` is hidden: every non-empty value of a secret key (numbers
 * and objects too), a plural key's values but counts, a credential key's `user:password` base64.
 */
export function hidesValue(kind: KeyKind, value: unknown): boolean {
  if (kind === PLAIN || value === undefined || value === null || value === "" || typeof value === "function")
    return false;
  // A dependency named like a key (`"cookie": "^0.7.2"` in a lockfile) has a version, not a secret.
  if (typeof value === "string" && VERSION_RANGE.test(value)) return false;
  if (kind === SECRET) return true;
  // In text an unquoted value runs to the end of the line (`maxTokens=4096 inputTokens=128`): its first word tells.
  if (kind === PLURAL)
    return !(
      typeof value === "number" ||
      typeof value === "boolean" ||
      (typeof value === "string" && /^\s*\d[\d_,.]*(?:[\s,;})\]]|$)/.test(value))
    );
  return typeof value === "string" && isBasicCredential(value.trim());
}

// Shared by every agent of the process: no one may patch it (see Redactor).
Object.freeze(KeyNames.prototype);
