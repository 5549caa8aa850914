import { generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { promises as fs, type Stats } from "node:fs";
import { join } from "node:path";
import { harnessxHome } from "@harnessx/core";
import { SigningKeyError } from "./errors.js";
import { ed25519KeyOf, fingerprintOf, publicKeyPem, rawPublicKeyOf } from "./public-key.js";

/** The private key's file in the keys folder. */
export const SIGNING_KEY_FILE = "signing-key.pem";

/**
 * The folder of the user's signing key and trusted keys: `HARNESSX_KEYS_DIR` when set and not
 * empty (CI, tests), else `keys/` in the user's harnessx folder (`HARNESSX_HOME`, else
 * `~/.harnessx`). Per user, not per store: a store travels (it is synced, copied, found in a
 * cloned repository), and a key inside it would let whoever holds the store sign as its owner.
 */
export function keysDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.HARNESSX_KEYS_DIR || join(harnessxHome(env), "keys");
}

/** An Ed25519 key that signs incident bundles: its private half never leaves this object. */
export class SigningKey {
  /** The public key's 32 raw bytes, base64: what a signed manifest carries. */
  readonly publicKey: string;
  /** The public key's fingerprint (`SHA256:...`): what people compare and `trace verify --key` takes. */
  readonly fingerprint: string;

  private constructor(
    private readonly privateKey: KeyObject,
    /** The file it was read from; undefined for a key made in memory. */
    readonly path: string | undefined,
  ) {
    const raw = rawPublicKeyOf(privateKey);
    this.publicKey = raw.toString("base64");
    this.fingerprint = fingerprintOf(raw);
    Object.freeze(this);
  }

  /** A new key held in memory only (tests, or a one-off signer). */
  static generate(): SigningKey {
    return new SigningKey(generateKeyPairSync("ed25519").privateKey, undefined);
  }

  /** The key of a PKCS#8 PEM text; `path` names its file in errors. */
  static fromPem(pem: string, path: string): SigningKey {
    return new SigningKey(ed25519KeyOf(pem, path, "private"), path);
  }

  /** The Ed25519 signature of `data` (64 bytes). */
  sign(data: Uint8Array): Buffer {
    return sign(null, data, this.privateKey);
  }

  /** The public key as a PEM file holds it: give it to whoever verifies your bundles. */
  publicKeyPem(): string {
    return publicKeyPem(Buffer.from(this.publicKey, "base64"));
  }
}

/** A signing key read from its folder, and whether it was created by this call. */
export interface LoadedSigningKey {
  /** The key. */
  key: SigningKey;
  /** True when the folder had no key and this call made one. */
  created: boolean;
}

/**
 * The key in `dir` (default `keysDir()`), made on first use: a new Ed25519 key written with
 * permissions 0600 in a folder of 0700, exclusively (two processes making it at once end up
 * with the same key). A key file others can read or write is refused, as ssh refuses one: a
 * signature proves nothing once someone else may hold the key.
 */
export async function loadSigningKey(dir: string = keysDir()): Promise<LoadedSigningKey> {
  const path = join(dir, SIGNING_KEY_FILE);
  let created = false;
  if (!(await statOf(path))) created = await createKeyFile(dir, path);
  return { key: await readKeyFile(path), created };
}

/** The key in `dir` (default `keysDir()`) when there is one, checked as `loadSigningKey` checks it; nothing is made. */
export async function existingSigningKey(dir: string = keysDir()): Promise<SigningKey | undefined> {
  const path = join(dir, SIGNING_KEY_FILE);
  return (await statOf(path)) ? readKeyFile(path) : undefined;
}

/** What `rotateSigningKey` did. */
export interface RotatedSigningKey {
  /** The new key. */
  key: SigningKey;
  /** The key it replaced; undefined when there was none. */
  retired: SigningKey | undefined;
  /** Where the old key's file was kept; undefined when there was none. */
  retiredPath: string | undefined;
}

/**
 * Replaces the key in `dir` by a new one; the old file is kept beside it as
 * `signing-key.<time>.pem` (delete it once nothing needs it). Bundles signed before still verify,
 * under the old fingerprint: whoever trusted it must trust the new one.
 */
export async function rotateSigningKey(dir: string = keysDir()): Promise<RotatedSigningKey> {
  const path = join(dir, SIGNING_KEY_FILE);
  const retired = (await statOf(path)) ? await readKeyFile(path) : undefined;
  let retiredPath: string | undefined;
  if (retired) {
    retiredPath = join(dir, `signing-key.${new Date().toISOString().replace(/[:.]/g, "-")}.pem`);
    await fs.rename(path, retiredPath);
  }
  await createKeyFile(dir, path);
  return { key: await readKeyFile(path), retired, retiredPath };
}

/** Writes a new key to a private temporary file, then links it into place unless a key got there first. */
async function createKeyFile(dir: string, path: string): Promise<boolean> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" });
  const tmp = join(dir, `.${SIGNING_KEY_FILE}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
  await fs.writeFile(tmp, pem, { mode: 0o600, flag: "wx" });
  try {
    await fs.link(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

async function readKeyFile(path: string): Promise<SigningKey> {
  const stat = await statOf(path);
  if (stat) refuseLoose(path, stat, 0o077, "read");
  const pem = await fs.readFile(path, "utf8").catch((error: Error) => {
    throw new SigningKeyError("unreadable", path, `cannot read the signing key ${path}: ${error.message}`, {
      cause: error,
    });
  });
  return SigningKey.fromPem(pem, path);
}

/**
 * Refuses a file whose permission bits give others (`mask` of group and other bits) access it
 * should not have. Windows has no such bits: its folder ACLs protect the file there.
 */
export function refuseLoose(path: string, stat: Stats, mask: number, access: "read" | "write"): void {
  if (process.platform === "win32" || (stat.mode & mask) === 0) return;
  const mode = (stat.mode & 0o777).toString(8).padStart(4, "0");
  const fix = mask === 0o077 ? "600" : "644";
  throw new SigningKeyError(
    "loose_permissions",
    path,
    `${path} has mode ${mode}: others than its owner may ${access} it, so it is not used; run chmod ${fix} ${path}`,
  );
}

async function statOf(path: string): Promise<Stats | undefined> {
  return fs.stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new SigningKeyError("unreadable", path, `cannot read the signing key ${path}: ${error.message}`, {
      cause: error,
    });
  });
}
