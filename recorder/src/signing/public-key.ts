import { createHash, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { promises as fs } from "node:fs";
import { SigningKeyError } from "./errors.js";

const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

/**
 * A public key's fingerprint: `SHA256:` then the unpadded base64 of the sha256 of its 32 raw
 * bytes (the way OpenSSH prints fingerprints). Two keys with the same fingerprint are the same key.
 */
export function fingerprintOf(rawPublicKey: Uint8Array): string {
  return `SHA256:${createHash("sha256").update(rawPublicKey).digest("base64").replace(/=+$/, "")}`;
}

/** True when `text` is a fingerprint as `fingerprintOf` writes it. */
export function isFingerprint(text: string): boolean {
  return FINGERPRINT.test(text);
}

/** The 32 raw bytes of an Ed25519 key (the public half of a private key). */
export function rawPublicKeyOf(key: KeyObject): Buffer {
  const publicKey = key.type === "public" ? key : createPublicKey(key);
  return Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url");
}

/** The Ed25519 public key of 32 raw bytes; undefined when they are not one. */
export function publicKeyOfRaw(raw: Uint8Array): KeyObject | undefined {
  if (raw.byteLength !== 32) return undefined;
  try {
    return createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(raw).toString("base64url") },
      format: "jwk",
    });
  } catch {
    return undefined;
  }
}

/** An Ed25519 public key as a PEM file holds it (SPKI), for sharing: what `readPublicKeyFile` reads. */
export function publicKeyPem(raw: Uint8Array): string {
  return publicKeyOfRaw(raw)!.export({ type: "spki", format: "pem" }).toString();
}

/** The fingerprint of the Ed25519 public key in a PEM file; a private key, another algorithm or anything else is refused. */
export async function readPublicKeyFile(path: string): Promise<string> {
  const text = await fs.readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT")
      throw new SigningKeyError(
        "not_found",
        path,
        `no such public key file: ${path} (a key is a PEM file, as trace keys --public prints it, or a fingerprint SHA256:...)`,
      );
    throw new SigningKeyError("unreadable", path, `cannot read the public key file ${path}: ${error.message}`, {
      cause: error,
    });
  });
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
    throw new SigningKeyError(
      "private_key_given",
      path,
      `${path} holds a private key: give the public key (trace keys --public prints yours), and keep the private one to its owner`,
    );
  }
  return fingerprintOf(rawPublicKeyOf(ed25519KeyOf(text, path, "public")));
}

/** The Ed25519 key of a PEM text, public or private; `path` names its file in errors. */
export function ed25519KeyOf(pem: string, path: string, kind: "public" | "private"): KeyObject {
  let key: KeyObject;
  try {
    key = kind === "public" ? createPublicKey(pem) : createPrivateKey(pem);
  } catch (error) {
    throw new SigningKeyError(
      "unreadable",
      path,
      `${path} does not hold a PEM ${kind} key (${(error as Error).message})`,
      { cause: error },
    );
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw new SigningKeyError(
      "not_ed25519",
      path,
      `${path} holds a ${key.asymmetricKeyType ?? "unknown"} key; bundles are signed with Ed25519 keys`,
    );
  return key;
}
