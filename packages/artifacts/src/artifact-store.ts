import { createHash, randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { readRegularFile, RefusedFileError } from "@harnessx/core/extension";
import { MAX_DECOMPRESSED_BYTES, zstdCompress, zstdDecompressWithin } from "./zstd/index.js";
import { ArtifactCorruptError, ArtifactNotFoundError } from "./errors.js";
import { writeFileAtomically } from "./write-atomically.js";

/** What `put` stored: the id (sha256 of the uncompressed bytes) and the uncompressed size. */
export interface StoredArtifact {
  /** The artifact id: lowercase hex sha256 of the uncompressed content. */
  sha256: string;
  /** Size of the uncompressed content, in bytes. */
  bytes: number;
}

const SHA256_ID = /^[0-9a-f]{64}$/;

/** True when `id` has the shape of an artifact id (never a path). */
export function isArtifactId(id: unknown): id is string {
  return typeof id === "string" && SHA256_ID.test(id);
}

/** sha256 hex digest of bytes or of a string's UTF-8 encoding. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

const HASH_SLICE_BYTES = 8 * 1024 * 1024;
/** The largest stored frame read: zstd grows incompressible data by well under 1%, so a frame of the largest content a reader takes fits. */
const MAX_FRAME_BYTES = MAX_DECOMPRESSED_BYTES + MAX_DECOMPRESSED_BYTES / 128;

/** sha256 hex of large bytes, yielding to the event loop between 8 MiB slices (~20 ms each). */
async function sha256InSlices(bytes: Uint8Array): Promise<string> {
  const hash = createHash("sha256");
  for (let at = 0; at < bytes.byteLength; at += HASH_SLICE_BYTES) {
    hash.update(bytes.subarray(at, at + HASH_SLICE_BYTES));
    if (at + HASH_SLICE_BYTES < bytes.byteLength) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return hash.digest("hex");
}

/**
 * Content-addressed, zstd-compressed blobs under `<root>/artifacts/`, shared by the
 * flight recorder and the result spill. Layout:
 * - `artifacts/<aa>/<sha256>.zst`: one zstd frame of the uncompressed bytes (`zstd -d` reads it);
 * - `artifacts/pins/<sha256>/<holder>`: one empty file per holder keeping the artifact alive;
 * - `artifacts/tmp/`: temporary files, renamed into place (atomic on one filesystem).
 * Files are the only shared state, so several processes can use one store.
 */
export class ArtifactStore {
  /** The store root given to the constructor (e.g. ".harnessx"). */
  readonly root: string;
  /** `<root>/artifacts`: the directory holding the blobs, pins and temporary files. */
  readonly dir: string;

  /** @param root the store root (e.g. ".harnessx"); artifacts live under `<root>/artifacts/`. */
  constructor(root: string) {
    this.root = root;
    this.dir = join(root, "artifacts");
  }

  /**
   * Stores the bytes once (dedup by content); safe to call from several processes at once.
   * `expectNew` (large content unlikely to be stored already, such as a spilled result) starts
   * compressing before the hash is known and hashes in slices between event-loop turns, so the
   * compression (off the main thread) overlaps the hash and other I/O keeps moving; a duplicate
   * then costs a compression thrown away.
   */
  async put(data: Uint8Array | string, options: { expectNew?: boolean } = {}): Promise<StoredArtifact> {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    const early = options.expectNew ? zstdCompress(bytes) : undefined;
    // Settled here too, so a duplicate (whose frame nobody awaits) leaves no unhandled rejection.
    early?.catch(() => undefined);
    const sha256 = options.expectNew ? await sha256InSlices(bytes) : sha256Hex(bytes);
    const path = this.pathOf(sha256);
    if (await exists(path)) return { sha256, bytes: bytes.byteLength };
    const frame = await (early ?? zstdCompress(bytes));
    await this.writeAtomically(path, frame);
    return { sha256, bytes: bytes.byteLength };
  }

  /** The uncompressed bytes (at most `maxBytes`, default 256 MiB); verifies them against the id. */
  async get(sha256: string, maxBytes: number = MAX_DECOMPRESSED_BYTES): Promise<Buffer> {
    const data = await zstdDecompressWithin(await this.getCompressed(sha256), maxBytes).catch((error: unknown) => {
      throw new ArtifactCorruptError(sha256, `its zstd frame does not decode (${(error as Error).message})`, {
        cause: error,
      });
    });
    if (sha256Hex(data) !== sha256) throw new ArtifactCorruptError(sha256, "its content no longer matches its sha256");
    return data;
  }

  /** The stored zstd frame as is (bundles copy it without recompressing); `ArtifactCorruptError` when its file is not a regular file or too large to be one. */
  async getCompressed(sha256: string): Promise<Buffer> {
    this.assertId(sha256);
    try {
      return await readRegularFile(this.pathOf(sha256), { maxBytes: MAX_FRAME_BYTES });
    } catch (error) {
      if (isMissing(error)) throw new ArtifactNotFoundError(sha256, "unknown");
      // A FIFO would block the reader, a device or a huge file never end: none is a stored frame.
      if (error instanceof RefusedFileError)
        throw new ArtifactCorruptError(
          sha256,
          error.problem === "too_large"
            ? `its file is larger than the ${MAX_FRAME_BYTES} bytes a reader takes`
            : "its file is not a regular file (a FIFO, device or link)",
          { cause: error },
        );
      throw error;
    }
  }

  /** True when an artifact with this id is stored; false for anything that is not a valid id. */
  async has(sha256: string): Promise<boolean> {
    return isArtifactId(sha256) && exists(this.pathOf(sha256));
  }

  /** Keeps the artifact alive for `holder` (e.g. "run:<runId>", "spill:<sessionId>"); idempotent. */
  async pin(sha256: string, holder: string): Promise<void> {
    this.assertId(sha256);
    const pinDir = join(this.dir, "pins", sha256);
    const pinPath = join(pinDir, holderFileName(holder));
    await fs.mkdir(pinDir, { recursive: true });
    await fs.writeFile(pinPath, "");
    // The pin is written before this check, so a concurrent deleteIfUnpinned either sees the pin
    // (and keeps the file) or has already removed the file, which this check then reports.
    if (!(await this.hasSettled(sha256))) {
      await fs.rm(pinPath, { force: true });
      throw new ArtifactNotFoundError(sha256, "unknown");
    }
  }

  /** Releases `holder`'s pin; a no-op when it held none. */
  async unpin(sha256: string, holder: string): Promise<void> {
    this.assertId(sha256);
    const pinDir = join(this.dir, "pins", sha256);
    await fs.rm(join(pinDir, holderFileName(holder)), { force: true });
    await fs.rmdir(pinDir).catch(() => undefined);
  }

  /** The holders pinning this artifact (decoded names). */
  async holders(sha256: string): Promise<string[]> {
    this.assertId(sha256);
    const names = await fs.readdir(join(this.dir, "pins", sha256)).catch(() => [] as string[]);
    return names.map(decodeURIComponent);
  }

  /** Deletes the artifact when no holder pins it; true when deleted. */
  async deleteIfUnpinned(sha256: string): Promise<boolean> {
    if (!isArtifactId(sha256)) return false;
    if ((await this.holders(sha256)).length > 0) return false;
    const path = this.pathOf(sha256);
    const tombstone = join(this.dir, "tmp", `${sha256}.deleting-${process.pid}-${randomBytes(4).toString("hex")}`);
    await fs.mkdir(join(this.dir, "tmp"), { recursive: true });
    try {
      await fs.rename(path, tombstone);
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    // A pin that raced in between the first check and the rename wins: put the file back.
    if ((await this.holders(sha256)).length > 0) {
      await fs.rename(tombstone, path);
      return false;
    }
    await fs.rm(tombstone, { force: true });
    return true;
  }

  /** Every stored artifact id (for retention sweeps and listings). */
  async list(): Promise<string[]> {
    const fanout = await fs.readdir(this.dir).catch(() => [] as string[]);
    const ids: string[] = [];
    for (const prefix of fanout.filter((name) => /^[0-9a-f]{2}$/.test(name))) {
      for (const name of await fs.readdir(join(this.dir, prefix)).catch(() => [] as string[])) {
        const id = name.slice(0, -".zst".length);
        if (name.endsWith(".zst") && isArtifactId(id)) ids.push(id);
      }
    }
    return ids;
  }

  /** Where the artifact's zstd frame lives (whether or not it exists). */
  pathOf(sha256: string): string {
    this.assertId(sha256);
    return join(this.dir, sha256.slice(0, 2), `${sha256}.zst`);
  }

  private assertId(sha256: string): void {
    if (!isArtifactId(sha256)) throw new ArtifactNotFoundError(String(sha256), "invalid_id");
  }

  /** A concurrent delete may hold the file aside for a moment before restoring it. */
  private async hasSettled(sha256: string): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await exists(this.pathOf(sha256))) return true;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return false;
  }

  private async writeAtomically(path: string, data: Uint8Array): Promise<void> {
    const tmpDir = join(this.dir, "tmp");
    await fs.mkdir(tmpDir, { recursive: true });
    await fs.mkdir(join(path, ".."), { recursive: true });
    await writeFileAtomically(path, data, { tmpDir });
  }
}

/** A holder becomes one safe file name: everything outside [A-Za-z0-9_-] is percent-encoded. */
function holderFileName(holder: string): string {
  if (typeof holder !== "string" || holder.length === 0) throw new TypeError("pin holder must be a non-empty string");
  const name = Array.from(Buffer.from(holder, "utf8"))
    .map((byte) =>
      /[A-Za-z0-9_-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
  if (name.length > 200)
    throw new TypeError(`pin holder is too long (${holder.length} characters); keep it under about 60`);
  return name;
}

async function exists(path: string): Promise<boolean> {
  try {
    await fs.access(path);
    return true;
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}
