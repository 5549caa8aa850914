import { promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomically } from "@harnessx/artifacts";
import { SigningKeyError } from "./errors.js";
import { isFingerprint } from "./public-key.js";
import { keysDir, refuseLoose } from "./signing-key.js";

/** The trusted keys list's file in the keys folder. */
export const TRUSTED_KEYS_FILE = "trusted-keys.json";

/** A teammate's key the user trusts to sign bundles, by fingerprint. */
export interface TrustedKey {
  /** What the user calls it (`alice`, `ci`). */
  name: string;
  /** The key's fingerprint (`SHA256:...`). */
  fingerprint: string;
  /** ISO 8601 time it was added. */
  addedAt: string;
}

const NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._@+-]{0,63}$/u;

/**
 * The keys the user trusts besides their own (`trace verify --trusted` accepts a bundle signed
 * by any of them), kept in `<keysDir>/trusted-keys.json`. A list others may write is refused:
 * anyone who could add a key to it could sign bundles you accept.
 */
export class TrustedKeys {
  constructor(
    /** The list's file; default `trusted-keys.json` in `keysDir()`. */
    readonly path: string = join(keysDir(), TRUSTED_KEYS_FILE),
  ) {}

  /** The keys, in the order they were added; none when the file does not exist. */
  async list(): Promise<TrustedKey[]> {
    const stat = await fs.stat(this.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw this.unreadable(error.message, error);
    });
    if (!stat) return [];
    refuseLoose(this.path, stat, 0o022, "write");
    let parsed: unknown;
    try {
      parsed = JSON.parse(await fs.readFile(this.path, "utf8"));
    } catch (error) {
      throw this.unreadable((error as Error).message, error);
    }
    const keys = (parsed as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(keys)) throw this.unreadable('it must hold { "keys": [...] }');
    return keys.map((entry: unknown, i) => {
      const { name, fingerprint, addedAt } = (entry ?? {}) as Partial<Record<keyof TrustedKey, unknown>>;
      if (
        typeof name !== "string" ||
        typeof fingerprint !== "string" ||
        !isFingerprint(fingerprint) ||
        typeof addedAt !== "string"
      ) {
        throw this.unreadable(`keys[${i}] must be { name, fingerprint: "SHA256:...", addedAt }`);
      }
      return { name, fingerprint, addedAt };
    });
  }

  /** Adds a key under `name`; the same key again gets the new name. Another key of that name is refused (untrust it first). */
  async add(name: string, fingerprint: string): Promise<TrustedKey> {
    if (!NAME.test(name))
      throw new SigningKeyError(
        "invalid",
        name,
        `a trusted key's name is 1 to 64 letters, digits, spaces or ._@+- (got ${JSON.stringify(name.slice(0, 80))})`,
      );
    if (!isFingerprint(fingerprint))
      throw new SigningKeyError(
        "invalid",
        fingerprint,
        `not a key fingerprint: ${JSON.stringify(fingerprint.slice(0, 80))}`,
      );
    const keys = await this.list();
    const other = keys.find((k) => k.name === name && k.fingerprint !== fingerprint);
    if (other)
      throw new SigningKeyError(
        "name_taken",
        this.path,
        `"${name}" already names ${other.fingerprint}: untrust it first, or choose another name`,
      );
    const added: TrustedKey = { name, fingerprint, addedAt: new Date().toISOString() };
    await this.write([...keys.filter((k) => k.fingerprint !== fingerprint), added]);
    return added;
  }

  /** Removes the key of this name or fingerprint; returns it, or undefined when the list has none such. */
  async remove(nameOrFingerprint: string): Promise<TrustedKey | undefined> {
    const keys = await this.list();
    const gone = keys.find((k) => k.name === nameOrFingerprint || k.fingerprint === nameOrFingerprint);
    if (gone) await this.write(keys.filter((k) => k !== gone));
    return gone;
  }

  private async write(keys: readonly TrustedKey[]): Promise<void> {
    await fs.mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFileAtomically(this.path, `${JSON.stringify({ keys }, null, 2)}\n`);
  }

  private unreadable(detail: string, cause?: unknown): SigningKeyError {
    return new SigningKeyError("unreadable", this.path, `the trusted keys list ${this.path} is unreadable: ${detail}`, {
      cause,
    });
  }
}
