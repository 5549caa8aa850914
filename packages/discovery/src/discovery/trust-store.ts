import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { TrustStoreError } from "@harnessx/core";
import { isMissing, realpathIfExists } from "./fs-missing.js";
import { pinProject, projectDigest } from "./project-digest.js";
import type { ProjectPin } from "./project-pin.js";

/** A project the user trusts, pinned to the digest of its trusted surfaces when it was trusted. */
export interface TrustRecord {
  /** The project folder, resolved with realpath. */
  readonly dir: string;
  /** `projectDigest(dir)` at the time of trust. */
  readonly digest: string;
  /** ISO 8601 time of trust. */
  readonly trustedAt: string;
}

/** What `TrustStore.inspect` found: the status, and the pin it compared when the project has a trust record. */
export interface TrustInspection {
  /** As `status()` answers. */
  readonly status: TrustStatus;
  /** The project's files as digested for this answer; absent when the project has no trust record. */
  readonly pin?: ProjectPin;
}

/** `changed`: trusted once, but a file under the trusted surfaces was edited, added or removed since. */
export type TrustStatus = "trusted" | "untrusted" | "changed";

const FORMAT = "harnessx.trust";
const VERSION = 1;

interface TrustFile {
  format: typeof FORMAT;
  version: typeof VERSION;
  projects: Record<string, { digest: string; trustedAt: string }>;
}

/**
 * The user's decisions about which projects may load their own extensions, kept in one JSON
 * file. Every call reads the file again so that several processes (agents, `trace trust`)
 * agree; every change is written whole through a temporary file and a rename, so a crash never
 * leaves a half-written trust file.
 */
export class TrustStore {
  /** The trust file's absolute path; it need not exist yet. */
  readonly file: string;

  constructor(file: string) {
    this.file = resolve(file);
  }

  /** Trusts `dir` as it is now; a later change to its trusted surfaces needs a new `trust`. */
  trust(dir: string): TrustRecord {
    const real = realpathSync(dir);
    const record: TrustRecord = { dir: real, digest: projectDigest(real), trustedAt: new Date().toISOString() };
    const data = this.read();
    data.projects[real] = { digest: record.digest, trustedAt: record.trustedAt };
    this.write(data);
    return record;
  }

  /** Forgets `dir`, which may no longer exist; false when it was not trusted. */
  revoke(dir: string): boolean {
    const key = canonical(dir);
    const data = this.read();
    if (!Object.hasOwn(data.projects, key)) return false;
    delete data.projects[key];
    this.write(data);
    return true;
  }

  /** Trusted and unchanged since. */
  isTrusted(dir: string): boolean {
    return this.status(dir) === "trusted";
  }

  /** Whether `dir` is trusted, never trusted (or revoked), or changed since it was trusted; reads the file and digests the project. */
  status(dir: string): TrustStatus {
    return this.inspect(dir).status;
  }

  /**
   * `status(dir)`, with the pin of what was compared: read the project through it, so a file
   * changed after this check is refused rather than served. No pin when `dir` was never trusted.
   */
  inspect(dir: string): TrustInspection {
    const key = canonical(dir);
    const { projects } = this.read();
    if (!Object.hasOwn(projects, key)) return { status: "untrusted" };
    const pin = pinProject(dir);
    return { status: pin.digest === projects[key]!.digest ? "trusted" : "changed", pin };
  }

  /** Every trusted project, by folder. */
  list(): TrustRecord[] {
    return Object.entries(this.read().projects)
      .map(([dir, { digest, trustedAt }]) => ({ dir, digest, trustedAt }))
      .sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  }

  private read(): TrustFile {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (err) {
      if (isMissing(err)) return { format: FORMAT, version: VERSION, projects: {} };
      throw new TrustStoreError(this.file, `cannot be read: ${(err as Error).message}`, { cause: err });
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new TrustStoreError(
        this.file,
        `not valid JSON (${(err as Error).message}); fix it, or delete it and trust your projects again`,
        { cause: err },
      );
    }
    return validate(this.file, data);
  }

  private write(data: TrustFile): void {
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600, flag: "wx" });
      renameSync(temp, this.file);
    } catch (err) {
      removeTemp(temp);
      throw new TrustStoreError(this.file, `cannot be written: ${(err as Error).message}`, { cause: err });
    }
  }
}

/** Removes a failed write's temporary file. Its folder may be missing or a file (ENOTDIR): then no temporary file was made, and that must not hide why the write failed. */
function removeTemp(temp: string): void {
  try {
    rmSync(temp, { force: true });
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
}

/** The realpath of a folder that exists; the resolved path of one that is gone, so it can still be revoked. */
function canonical(dir: string): string {
  return realpathIfExists(resolve(dir));
}

function validate(file: string, data: unknown): TrustFile {
  if (!isObject(data) || data.format !== FORMAT)
    throw new TrustStoreError(file, `not a harnessx trust file (expected "format": "${FORMAT}")`);
  if (data.version !== VERSION)
    throw new TrustStoreError(
      file,
      `version ${JSON.stringify(data.version)} is not supported (this harnessx reads version ${VERSION})`,
    );
  if (!isObject(data.projects))
    throw new TrustStoreError(file, `"projects" must be an object of folder -> { digest, trustedAt }`);
  for (const [dir, record] of Object.entries(data.projects)) {
    if (
      !isObject(record) ||
      typeof record.digest !== "string" ||
      !/^[0-9a-f]{64}$/.test(record.digest) ||
      typeof record.trustedAt !== "string"
    ) {
      throw new TrustStoreError(file, `the record of ${dir} needs "digest" (sha256 hex) and "trustedAt" strings`);
    }
  }
  return data as unknown as TrustFile;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
