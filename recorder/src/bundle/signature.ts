import { verify } from "node:crypto";
import { fingerprintOf, publicKeyOfRaw } from "../signing/public-key.js";
import type { SigningKey } from "../signing/signing-key.js";
import { BundleSignatureError, BundleSignerError } from "./errors.js";
import { MEMBER, type BundleManifest, type BundleSignature } from "./manifest.js";

/** Who signed a bundle, as its manifest says and its signature proves. */
export interface BundleSigner {
  /** The key's fingerprint (`SHA256:...`). */
  fingerprint: string;
  /** The public key's 32 raw bytes, base64, as the manifest carries them. */
  publicKey: string;
}

// What is signed is told apart from anything else the same key might sign.
const CONTEXT = "harnessx.incident/manifest\n";

/** JSON with object keys sorted and no spaces: one text for one value, whoever wrote the file. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The bytes a bundle's signature covers: the whole manifest as parsed (every member's size and
 * sha256, linked runs' bundles included, and the signer's public key) without the signature's
 * value, in canonical JSON. Readers check what they read, not the file's layout.
 */
function signedBytes(manifest: BundleManifest): Buffer {
  const { value: _value, ...signature } = manifest.signature ?? ({} as Partial<BundleSignature>);
  return Buffer.from(CONTEXT + canonical({ ...manifest, signature }));
}

/** The manifest signed with `key`: its `signature` names the key and covers everything else in it. */
export function signManifest(manifest: BundleManifest, key: Pick<SigningKey, "publicKey" | "sign">): BundleManifest {
  const unsigned = JSON.parse(
    JSON.stringify({ ...manifest, signature: { algorithm: "ed25519", publicKey: key.publicKey, value: "" } }),
  ) as BundleManifest;
  return {
    ...unsigned,
    signature: { ...unsigned.signature!, value: key.sign(signedBytes(unsigned)).toString("base64") },
  };
}

/**
 * The manifest's signer, or null when it is unsigned. A signature that does not verify against
 * the key it names is refused: the manifest (a member's checksum with it) changed after signing.
 */
export function checkSignature(path: string, manifest: BundleManifest): BundleSigner | null {
  const signature = manifest.signature;
  if (!signature) return null;
  const raw = Buffer.from(signature.publicKey, "base64");
  const key = publicKeyOfRaw(raw);
  if (!key)
    throw new BundleSignatureError(
      path,
      MEMBER.manifest,
      "its signature names a public key that is not an Ed25519 key",
    );
  let bytes: Buffer;
  try {
    bytes = signedBytes(manifest);
  } catch (error) {
    // Only a manifest nested past the stack's depth fails here; a genuine one is flat.
    throw new BundleSignatureError(path, MEMBER.manifest, `it cannot be checked (${(error as Error).message})`);
  }
  const fingerprint = fingerprintOf(raw);
  if (!verify(null, bytes, key, Buffer.from(signature.value, "base64"))) {
    throw new BundleSignatureError(
      path,
      MEMBER.manifest,
      `the signature by ${fingerprint} does not match it: changed after it was signed (tampered), or its key swapped`,
    );
  }
  return { fingerprint, publicKey: signature.publicKey };
}

/** Refuses a bundle whose signer is not one of `accepted` (fingerprints): unsigned, or signed by another key. */
export function requireSigner(path: string, signer: BundleSigner | null, accepted: readonly string[]): void {
  if (!signer || !accepted.includes(signer.fingerprint))
    throw new BundleSignerError(path, signer?.fingerprint ?? null, accepted);
}
