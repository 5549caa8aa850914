import { constants, promises as fs } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { HarnessError } from "../errors.js";

/** Why `readRegularFile` or `openRegularFile` would not read a file. */
export type RefusedFileProblem =
  /** A FIFO, socket, device, directory, or (unless followed) a symbolic link: reading it could block forever or never end. */
  | "not_a_regular_file"
  /** Larger than the reader takes. */
  | "too_large";

/** A file a reader refused before reading it: not a regular file, or over its size limit. `code` is `file_<problem>`. */
export class RefusedFileError extends HarnessError {
  constructor(
    /** Why it was refused. */
    readonly problem: RefusedFileProblem,
    /** The file, as given. */
    readonly path: string,
    message: string,
    /** For `too_large`: the most bytes the reader takes. */
    readonly limit?: number,
  ) {
    super(`file_${problem}`, message);
  }
}

/** Options of `openRegularFile` and `readRegularFile`. */
export interface RegularFileOptions {
  /**
   * Follow a symbolic link in the last path component (to a regular file). Default false: a file
   * inside a store, a journal folder or a dataset that is a link is refused, as a FIFO is. Pass
   * true for a path the user typed (a bundle named on the command line).
   */
  followSymlinks?: boolean;
}

// Windows has neither flag; there the type check after opening still refuses what is not a file.
const NO_BLOCK = constants.O_NONBLOCK ?? 0;
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

const kindOf = (stat: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string =>
  stat.isFIFO()
    ? "a FIFO (named pipe)"
    : stat.isSocket()
      ? "a socket"
      : stat.isDirectory()
        ? "a directory"
        : stat.isSymbolicLink()
          ? "a symbolic link"
          : stat.isCharacterDevice() || stat.isBlockDevice()
            ? "a device"
            : "not a regular file";

function notRegular(path: string, what: string): RefusedFileError {
  return new RefusedFileError(
    "not_a_regular_file",
    path,
    `${path} is ${what}, not a regular file: refused (reading it could block or never end)`,
  );
}

/**
 * Opens a file for reading only if it is a regular file, without ever blocking: the open does not
 * wait (O_NONBLOCK, so a FIFO with no writer cannot hang the reader), does not follow a link
 * unless asked (O_NOFOLLOW), and the handle's own type is checked after opening, so a file
 * swapped for a FIFO between a check and the open is refused too. `RefusedFileError` otherwise;
 * errors of the file system (ENOENT, EACCES) pass through.
 */
export async function openRegularFile(path: string, options: RegularFileOptions = {}): Promise<FileHandle> {
  if (!options.followSymlinks) {
    const link = await fs.lstat(path);
    if (!link.isFile()) throw notRegular(path, kindOf(link));
  }
  let handle: FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | NO_BLOCK | (options.followSymlinks ? 0 : NO_FOLLOW));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw notRegular(path, "a symbolic link");
    throw error;
  }
  const stat = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (!stat.isFile()) {
    await handle.close();
    throw notRegular(path, kindOf(stat));
  }
  return handle;
}

/** Options of `readRegularFile`. */
export interface ReadRegularFileOptions extends RegularFileOptions {
  /** The most bytes read; a larger file is refused before a byte is read (`too_large`). */
  maxBytes: number;
  /** What the file is, for the message (e.g. "run.json"); default "the file". */
  what?: string;
  /** How to raise the limit, when raising makes sense (appended to the message). */
  raise?: string;
}

/**
 * A regular file's bytes (see `openRegularFile`), at most `maxBytes` of them: a larger file is
 * refused from its size, and one that grows while read is refused when it passes the limit.
 */
export async function readRegularFile(path: string, options: ReadRegularFileOptions): Promise<Buffer> {
  const handle = await openRegularFile(path, options);
  try {
    const tooLarge = (bytes: number): RefusedFileError => {
      const n = (value: number) => value.toLocaleString("en-US");
      const message = `${options.what ?? "the file"} ${path} holds ${n(bytes)} bytes, more than the ${n(options.maxBytes)} a reader takes${options.raise ? ` (${options.raise})` : ""}`;
      return new RefusedFileError("too_large", path, message, options.maxBytes);
    };
    const { size } = await handle.stat();
    if (size > options.maxBytes) throw tooLarge(size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(size - total, 64 * 1024), options.maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > options.maxBytes) throw tooLarge(total);
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}
