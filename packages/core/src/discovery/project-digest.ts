import { createHash } from "node:crypto";
import { closeSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, statSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { ProjectDigestError } from "../errors.js";
import { isMissing } from "./fs-missing.js";

/**
 * The folders of a project's `.harnessx/` whose files can change what the agent loads. Trust is
 * pinned to their content only: the rest of `.harnessx/` (the flight recorder's runs and
 * artifacts) changes on every run and must not untrust the project.
 */
export const TRUSTED_SURFACES: readonly string[] = Object.freeze(["extensions", "skills", "commands", "prompts", "knowledge"]);

/** Files of the project outside those folders that start code too: its MCP server configurations. */
export const TRUSTED_FILES: readonly string[] = Object.freeze([".mcp.json", ".harnessx/mcp.json"]);

/** Past this many files the digest refuses: a runaway folder should fail loudly, not stall every agent start. */
const MAX_ENTRIES = 10_000;
const CHUNK_BYTES = 64 * 1024;

/**
 * A sha256 (hex) over the relative paths and contents of every file under the project's trusted
 * surfaces and of its `TRUSTED_FILES`, sorted by path. Directory symlinks are recorded by their target, never followed
 * (discovery does not load through them either); a file symlink counts its target and content.
 * An absent surface adds nothing; files added to it later change the digest.
 */
export function projectDigest(projectDir: string): string {
  const root = join(projectDir, ".harnessx");
  const paths: string[] = [];
  for (const surface of TRUSTED_SURFACES) collect(root, surface, paths);
  // Named relative to `.harnessx` like the rest, so `.mcp.json` is `../.mcp.json`.
  for (const file of TRUSTED_FILES) {
    const relativeToRoot = file.startsWith(".harnessx/") ? file.slice(".harnessx/".length) : `../${file}`;
    if (lstatSync(join(root, relativeToRoot), { throwIfNoEntry: false })) paths.push(relativeToRoot);
  }
  // Code-unit order, not locale order: the digest must not depend on the machine's language.
  paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const digest = createHash("sha256").update("harnessx.project-digest.v1\n");
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  for (const path of paths) digest.update(`${JSON.stringify(describeEntry(root, path, buffer))}\n`);
  return digest.digest("hex");
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
      throw new ProjectDigestError(root, `more than ${MAX_ENTRIES} files under ${TRUSTED_SURFACES.join(", ")}; trust covers at most ${MAX_ENTRIES}: remove generated files from these folders`);
    }
  }
}

/** One entry as the digest sees it; JSON framing keeps paths, targets and hashes unambiguous. */
function describeEntry(root: string, relative: string, buffer: Buffer): [kind: string, path: string, target: string, content: string] {
  const file = join(root, relative);
  try {
    if (!lstatSync(file).isSymbolicLink()) return ["file", relative, "", hashFile(file, buffer)];
    const target = readlinkSync(file);
    const stat = statSync(file, { throwIfNoEntry: false });
    return ["link", relative, target, stat?.isFile() ? hashFile(file, buffer) : stat?.isDirectory() ? "directory" : "none"];
  } catch (err) {
    throw new ProjectDigestError(root, `cannot read ${relative}: ${(err as Error).message}`, { cause: err });
  }
}

/** Chunked, so a large file never sits in memory whole. */
function hashFile(file: string, buffer: Buffer): string {
  const hash = createHash("sha256");
  const fd = openSync(file, "r");
  try {
    for (let n = readSync(fd, buffer, 0, buffer.length, null); n > 0; n = readSync(fd, buffer, 0, buffer.length, null)) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}
