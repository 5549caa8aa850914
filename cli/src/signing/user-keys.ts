import {
  existingSigningKey,
  isFingerprint,
  keysDir,
  loadSigningKey,
  readPublicKeyFile,
  TRUSTED_KEYS_FILE,
  TrustedKeys,
  type LoadedSigningKey,
  type SigningKey,
} from "@harnessx/recorder";
import { join } from "node:path";
import type { CommandContext } from "../context.js";
import { usageError } from "../errors.js";

/** The keys folder of this CLI's user: `HARNESSX_KEYS_DIR`, else `keys/` in `HARNESSX_HOME` (default `~/.harnessx`). */
export function userKeysDir(ctx: CommandContext): string {
  return ctx.path(keysDir(ctx.io.env));
}

/** The user's signing key, made on first use. */
export function userSigningKey(ctx: CommandContext): Promise<LoadedSigningKey> {
  return loadSigningKey(userKeysDir(ctx));
}

/** The user's trusted keys list. */
export function userTrustedKeys(ctx: CommandContext): TrustedKeys {
  return new TrustedKeys(join(userKeysDir(ctx), TRUSTED_KEYS_FILE));
}

/** A key as the user typed it (`--key`, `--trust`): a fingerprint as it is, else a public key file. */
export function fingerprintOfRef(ctx: CommandContext, ref: string): Promise<string> {
  if (ref.trim() === "")
    throw usageError("a key is a public key file or a fingerprint (SHA256:...), not an empty string");
  return isFingerprint(ref) ? Promise.resolve(ref) : readPublicKeyFile(ctx.path(ref));
}

/** Whose a key is, for people: the user's own, a trusted one by its name, or a stranger's. */
export async function whoseKey(
  ctx: CommandContext,
  fingerprint: string,
): Promise<{ own: boolean; trustedAs: string | null }> {
  const own = (await existingSigningKey(userKeysDir(ctx)).catch(() => undefined))?.fingerprint === fingerprint;
  const trusted = own
    ? undefined
    : (
        await userTrustedKeys(ctx)
          .list()
          .catch(() => [])
      ).find((k) => k.fingerprint === fingerprint);
  return { own, trustedAs: trusted?.name ?? null };
}

/** What `export` and `scrub` say of the signature they made. */
export function signedWithLine(key: SigningKey, created: boolean): string {
  const made = created
    ? `; it was made now, in ${key.path} (keep it private; share the public key: trace keys --public > me.pub)`
    : "";
  return `  signed with your key ${key.fingerprint}${made}`;
}
