import { HarnessError } from "@harnessx/core";

/**
 * What is wrong with a key, a key file or the trusted keys list:
 * - `loose_permissions`: others than its owner may read the signing key, or write the trusted keys list;
 * - `unreadable`: the file cannot be read, or does not hold what it should (a PEM key, the list's JSON);
 * - `not_ed25519`: a key of another algorithm (bundles are signed with Ed25519);
 * - `private_key_given`: a private key where a public one was expected (share only the public key);
 * - `not_found`: no such file, and the text is not a fingerprint either;
 * - `name_taken`: the trusted keys list already has another key under that name;
 * - `invalid`: a name or fingerprint given for the trusted keys list that is not one.
 */
export type SigningKeyProblem =
  | "loose_permissions"
  | "unreadable"
  | "not_ed25519"
  | "private_key_given"
  | "not_found"
  | "name_taken"
  | "invalid";

/** A key that cannot be used as asked; `problem` says why, `code` is `signing_key_<problem>`. */
export class SigningKeyError extends HarnessError {
  constructor(
    /** What is wrong (see `SigningKeyProblem`). */
    readonly problem: SigningKeyProblem,
    /** The file at fault, or the text given for a key. */
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`signing_key_${problem}`, message, options);
  }
}
