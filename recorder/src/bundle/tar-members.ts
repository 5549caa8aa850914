import { posix } from "node:path";
import { Readable } from "node:stream";
import tar from "tar-stream";
import {
  BundleError,
  BundleFormatError,
  BundleTooLargeError,
  BundleTruncatedError,
  BundleUnsafePathError,
} from "./errors.js";
import type { BundleLimits } from "./inflate.js";
import { MEMBER } from "./manifest.js";
import { openRegularFile, RefusedFileError } from "@harnessx/core/extension";
import { MAX_BUNDLE_MANIFEST_BYTES, MAX_RUN_MANIFEST_BYTES, MAX_SUMS_BYTES } from "../format/read-limits.js";

const MAX_MEMBERS = 100_000;

/** Members read as JSON or text whole: each has its own, smaller limit than the bundle's members (`maxMemberBytes`). */
const TEXT_MEMBER_LIMITS = new Map<string, number>([
  [MEMBER.manifest, MAX_BUNDLE_MANIFEST_BYTES],
  [MEMBER.run, MAX_RUN_MANIFEST_BYTES],
  [MEMBER.sums, MAX_SUMS_BYTES],
]);

/** Refuses absolute paths, `..` segments, backslashes and anything that normalizes elsewhere. */
export function checkMemberPath(bundle: string, name: string): void {
  if (name.length === 0 || name.includes("\0"))
    throw new BundleUnsafePathError(bundle, name, "empty or NUL in the name");
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name) || name.includes("\\"))
    throw new BundleUnsafePathError(bundle, name, "absolute or Windows-style path");
  if (name.split("/").includes(".."))
    throw new BundleUnsafePathError(bundle, name, "a '..' segment escapes the bundle folder");
  if (posix.normalize(name) !== name) throw new BundleUnsafePathError(bundle, name, "not a normalized relative path");
}

/** The bundle file as a stream: a regular file (a link the user named is followed), never a FIFO that would block the read. */
async function bundleFile(path: string): Promise<Readable> {
  try {
    return (await openRegularFile(path, { followSymlinks: true })).createReadStream();
  } catch (error) {
    if (error instanceof RefusedFileError)
      throw new BundleFormatError(path, "not a regular file (a FIFO, device or directory): refused unread");
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new BundleFormatError(path, "file not found", { cause: error });
    // ENOTDIR, EACCES, ELOOP...: the user named a path that cannot be read, not a bundle.
    throw new BundleFormatError(path, `cannot be opened (${code ?? (error as Error).message})`, { cause: error });
  }
}

/**
 * Reads a bundle's members into memory, in order, refusing before reading its data any member
 * that is not a regular file with a safe path, appears twice, or is larger (as its tar header
 * says) than the limits allow. The manifest must come first. `data` is the tar itself when it is
 * not a file (a linked run's bundle nested in another); `path` then names it in errors.
 */
export async function readMembers(path: string, limits: BundleLimits, data?: Buffer): Promise<Map<string, Buffer>> {
  const members = new Map<string, Buffer>();
  let total = 0;
  const source = data ? Readable.from([data]) : await bundleFile(path);
  const extract = tar.extract();
  source.on("error", (error: Error) => extract.destroy(error));
  source.pipe(extract);
  try {
    for await (const entry of extract) {
      const { name, type, size = 0 } = entry.header;
      checkMemberPath(path, name);
      if (type !== "file")
        throw new BundleUnsafePathError(path, name, `a ${type ?? "special"} entry, not a regular file`);
      if (members.size === 0 && name !== MEMBER.manifest)
        throw new BundleFormatError(path, `the first member is "${name}", expected ${MEMBER.manifest}`);
      if (members.has(name)) throw new BundleFormatError(path, `member "${name}" appears twice`);
      if (members.size >= MAX_MEMBERS) throw new BundleFormatError(path, `more than ${MAX_MEMBERS} members`);
      if (size > limits.maxMemberBytes)
        throw new BundleTooLargeError(path, name, size, limits.maxMemberBytes, "is stored as");
      const textLimit = TEXT_MEMBER_LIMITS.get(name);
      if (textLimit !== undefined && size > textLimit)
        throw new BundleTooLargeError(
          path,
          name,
          size,
          textLimit,
          "is stored as",
          "refused unread (the exporter never writes one this large)",
        );
      total += size;
      if (total > limits.maxTotalBytes)
        throw new BundleTooLargeError(path, name, total, limits.maxTotalBytes, "brings the bundle to");
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      members.set(name, Buffer.concat(chunks));
    }
  } catch (error) {
    source.destroy();
    if (error instanceof BundleError) throw error;
    const message = (error as Error).message ?? String(error);
    if (/unexpected end|premature|truncat/i.test(message))
      throw new BundleTruncatedError(path, message, { cause: error });
    throw new BundleFormatError(path, `not a readable tar archive (${message})`, { cause: error });
  }
  if (members.size === 0) throw new BundleTruncatedError(path, "the archive holds no members");
  return members;
}
