import { createHash } from "node:crypto";
import { appendFile, mkdir } from "node:fs/promises";
import { MAX_DECOMPRESSED_BYTES } from "@harnessx/artifacts";
import { readRegularFile } from "@harnessx/core/extension";
import { dirname, join } from "node:path";
import type { S3Target } from "./s3-target.js";

/** One uploaded file, as the manifest records it (one JSON line each). */
export interface UploadedEntry {
  /** Dataset-relative path, which is also the key under the target's prefix. */
  path: string;
  /** sha256 of the file's bytes (also stored as the object's `sha256` metadata). */
  sha256: string;
  bytes: number;
  /** The local file's mtime when it was hashed: an unchanged file is not hashed again. */
  mtimeMs: number;
}

/** The manifest's file for a target: `<store>/sync/<digest of endpoint and URL>.ndjson`, one per destination. */
export function manifestPathOf(storeDir: string, target: S3Target, endpoint: string | undefined): string {
  const id = createHash("sha256")
    .update(`${endpoint ?? "aws"}\n${target.url}`)
    .digest("hex")
    .slice(0, 16);
  return join(storeDir, "sync", `${id}.ndjson`);
}

/**
 * What was uploaded to one target, kept in the store (the local side knows what it sent without
 * asking the storage). Append-only JSON lines written after each upload completes: a crash loses
 * at most the line of an object already stored, which the next sync finds by its digest (HEAD)
 * and does not send again; a torn last line is ignored.
 */
export class SyncManifest {
  private readonly entries = new Map<string, UploadedEntry>();
  /** A crash tore the last line: the next one starts on a fresh line so it stays readable. */
  private tornTail = false;

  private constructor(readonly file: string) {}

  /** Reads the manifest at `file` (none yet: empty). */
  static async open(file: string): Promise<SyncManifest> {
    const manifest = new SyncManifest(file);
    // Read as a regular file only: a FIFO in its place would block the sync for good.
    const text = await readRegularFile(file, { maxBytes: MAX_DECOMPRESSED_BYTES, what: "the sync manifest" }).then(
      (bytes) => bytes.toString("utf8"),
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return "";
        throw error;
      },
    );
    manifest.tornTail = text !== "" && !text.endsWith("\n");
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const entry = JSON.parse(line) as UploadedEntry;
        if (typeof entry.path === "string" && typeof entry.sha256 === "string") manifest.entries.set(entry.path, entry);
      } catch {
        // a line torn by a crash: that object is checked again by digest
      }
    }
    return manifest;
  }

  get(path: string): UploadedEntry | undefined {
    return this.entries.get(path);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Records an upload that completed (or an object found already stored with the same digest). */
  async record(entry: UploadedEntry): Promise<void> {
    if (this.entries.size === 0) await mkdir(dirname(this.file), { recursive: true });
    this.entries.set(entry.path, entry);
    const line = `${this.tornTail ? "\n" : ""}${JSON.stringify(entry)}\n`;
    this.tornTail = false;
    await appendFile(this.file, line);
  }
}
