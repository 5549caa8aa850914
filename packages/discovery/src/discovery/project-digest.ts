import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  statSync,
  type Dirent,
} from "node:fs";
import { join, resolve } from "node:path";
import { ProjectDigestError } from "@harnessx/core";
import { isMissing, realpathIfExists } from "./fs-missing.js";
import { ProjectPin, TRUSTED_FILE_ENTRIES, TRUSTED_FILES, TRUSTED_SURFACES, type PinnedEntry } from "./project-pin.js";

export { TRUSTED_FILES, TRUSTED_SURFACES };

/** Past this many files the digest refuses: a runaway folder should fail loudly, not stall every agent start. */
const MAX_ENTRIES = 10_000;
const CHUNK_BYTES = 64 * 1024;
/** Never blocks on a FIFO swapped in after the listing; `O_NOFOLLOW` is added for entries listed as files. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * A sha256 (hex) over the relative paths and contents of every file under the project's trusted
 * surfaces and of its `TRUSTED_FILES`, sorted by path. Symlinks (a surface folder itself
 * included) are recorded by their target, never walked into: nothing is loaded through them. An
 * absent surface adds nothing; files added to it later change the digest.
 */
export function projectDigest(projectDir: string): string {
  return pinProject(projectDir).digest;
}

/**
 * Digests the project as `projectDigest` does and keeps what it compared, file by file: the
 * `ProjectPin` through which everything later read from the project is checked.
 */
export function pinProject(projectDir: string): ProjectPin {
  const root = join(projectDir, ".harnessx");
  const paths: string[] = [];
  for (const surface of TRUSTED_SURFACES) collectSurface(root, surface, paths);
  for (const file of TRUSTED_FILE_ENTRIES) if (lstatSync(join(root, file), { throwIfNoEntry: false })) paths.push(file);
  // Code-unit order, not locale order: the digest must not depend on the machine's language.
  paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const digest = createHash("sha256").update("harnessx.project-digest.v1\n");
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const entries = new Map<string, PinnedEntry>();
  for (const path of paths) {
    const { line, entry } = describeEntry(root, path, buffer);
    digest.update(`${JSON.stringify(line)}\n`);
    entries.set(path, entry);
  }
  return new ProjectPin(projectDir, realpathIfExists(resolve(projectDir)), digest.digest("hex"), entries);
}

/** A surface folder that is itself a symlink is one entry, like any other symlink. */
function collectSurface(root: string, surface: string, out: string[]): void {
  if (lstatSync(join(root, surface), { throwIfNoEntry: false })?.isSymbolicLink()) out.push(surface);
  else collect(root, surface, out);
}

function collect(root: string, relative: string, out: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(root, relative), { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return;
    throw new ProjectDigestError(root, `cannot list ${relative}: ${(err as Error).message}`, { cause: err });
  }
  for (const entry of entries) {
    const path = `${relative}/${entry.name}`;
    if (entry.isDirectory()) collect(root, path, out);
    // Sockets, FIFOs and devices cannot be extensions, and reading a FIFO would block.
    else if (entry.isFile() || entry.isSymbolicLink()) out.push(path);
    if (out.length > MAX_ENTRIES) {
      throw new ProjectDigestError(
        root,
        `more than ${MAX_ENTRIES} files under ${TRUSTED_SURFACES.join(", ")}; trust covers at most ${MAX_ENTRIES}: remove generated files from these folders`,
      );
    }
  }
}

type Line = [kind: string, path: string, target: string, content: string];

/** One entry as the digest sees it (JSON framing keeps paths, targets and hashes unambiguous), and as the pin keeps it. */
function describeEntry(root: string, relative: string, buffer: Buffer): { line: Line; entry: PinnedEntry } {
  const file = join(root, relative);
  try {
    if (!lstatSync(file).isSymbolicLink()) {
      const { sha256, size } = hashFile(file, buffer, OPEN_FLAGS | (constants.O_NOFOLLOW ?? 0));
      return { line: ["file", relative, "", sha256], entry: { kind: "file", size, sha256 } };
    }
    const target = readlinkSync(file);
    // A link's target content still counts, so the digest of a project trusted before links were refused is unchanged.
    const stat = statSync(file, { throwIfNoEntry: false });
    const content = stat?.isFile()
      ? hashFile(file, buffer, OPEN_FLAGS).sha256
      : stat?.isDirectory()
        ? "directory"
        : "none";
    return { line: ["link", relative, target, content], entry: { kind: "link", target } };
  } catch (err) {
    throw new ProjectDigestError(root, `cannot read ${relative}: ${(err as Error).message}`, { cause: err });
  }
}

/** Chunked, so a large file never sits in memory whole. */
function hashFile(file: string, buffer: Buffer, flags: number): { sha256: string; size: number } {
  const hash = createHash("sha256");
  const fd = openSync(file, flags);
  let size = 0;
  try {
    if (!fstatSync(fd).isFile()) throw new Error("it is not a regular file");
    for (
      let n = readSync(fd, buffer, 0, buffer.length, null);
      n > 0;
      n = readSync(fd, buffer, 0, buffer.length, null)
    ) {
      hash.update(buffer.subarray(0, n));
      size += n;
    }
  } finally {
    closeSync(fd);
  }
  return { sha256: hash.digest("hex"), size };
}
