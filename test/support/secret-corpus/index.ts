// The redaction corpus: secret formats from the providers' documentation and the gitleaks and
// secretlint rule sets, in the places agents meet them, and look-alikes that must be left alone.
import { EVERYDAY_FORMS } from "./everyday-forms.js";
import { PRIVATE_KEYS } from "./private-keys.js";
import { VENDOR_TOKENS } from "./vendor-tokens.js";
import type { CorpusSample } from "./sample.js";

export type { CorpusSample } from "./sample.js";
export { LOOK_ALIKES } from "./look-alikes.js";
export { RSA_PKCS8, bodyLines } from "./private-keys.js";

/** Every format of the corpus, claimed or not. */
export const SECRET_CORPUS: readonly CorpusSample[] = [...VENDOR_TOKENS, ...EVERYDAY_FORMS, ...PRIVATE_KEYS];

/** True when any `window` characters in a row of `secret` (all of it when shorter) appear in `text`. */
export function leaks(text: string, secret: string, window = 10): boolean {
  if (secret.length <= window) return text.includes(secret);
  for (let i = 0; i + window <= secret.length; i++) if (text.includes(secret.slice(i, i + window))) return true;
  return false;
}
