import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { TrustedFileError } from "@harnessx/core";
import { isMissing, realpathIfExists } from "./fs-missing.js";

/**
 * The folders of a project's `.harnessx/` whose files can change what the agent loads. Trust is
 * pinned to their content only: the rest of `.harnessx/` (the flight recorder's runs and
 * artifacts) changes on every run and must not untrust the project.
 */
export const TRUSTED_SURFACES: readonly string[] = Object.freeze([
  "extensions",
  "skills",
  "commands",
  "prompts",
  "knowledge",
]);

/** Files of the project outside those folders that start code too: its MCP server configurations. */
export const TRUSTED_FILES: readonly string[] = Object.freeze([".mcp.json", ".harnessx/mcp.json"]);

/** `TRUSTED_FILES` as the digest names them, relative to `.harnessx`: `.mcp.json` is `../.mcp.json`. */
export const TRUSTED_FILE_ENTRIES: readonly string[] = TRUSTED_FILES.map((file) =>
  file.startsWith(".harnessx/") ? file.slice(".harnessx/".length) : `../${file}`,
);

/** A regular file as trust compared it. */
export interface PinnedFile {
  /** Always `file`. */
  readonly kind: "file";
  /** Its size in bytes. */
  readonly size: number;
  /** The sha256 (hex) of its content. */
  readonly sha256: string;
}

/** A symlink, pinned by its target's name; never followed. */
export interface PinnedLink {
  /** Always `link`. */
  readonly kind: "link";
  /** What the link points to, as it is written. */
  readonly target: string;
}

/** One entry of a pinned project: a regular file, or a symlink. */
export type PinnedEntry = PinnedFile | PinnedLink;

/** An entry under a folder, as `ProjectPin.list` gives it. */
export interface PinnedListing {
  /** Its path relative to the folder, `/`-separated. */
  readonly path: string;
  /** What was pinned there. */
  readonly entry: PinnedEntry;
}

/** Read-only, never following a symlink in the last component, never blocking on a FIFO. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const REVIEW = "review the change, then trust the project again (trace trust)";
const NO_LINKS =
  "a trusted project is never read through symlinks: replace the link with what it points to, then trust the project again";

/**
 * What trust compared when a project was checked: every file of its trusted surfaces, by size
 * and sha256, and every symlink there, by target. Whatever discovery reads from the project
 * later (extension code, skills, commands, templates, knowledge, MCP configuration) is read
 * through `read()`, which serves only bytes that still hash as pinned: a file edited, added,
 * removed or swapped for a symlink after the check is refused, never served.
 */
export class ProjectPin {
  /** The project folder, its real path. */
  readonly dir: string;
  /** The project digest these entries make (`projectDigest(dir)` when pinned). */
  readonly digest: string;
  /** The real path of the project's `.harnessx`: module loaders see real paths. */
  private readonly home: string;
  /** The project folder's real path as the system resolves it, which `read()` compares folders with. */
  private readonly realDir: string;
  /** `.harnessx` as the caller spelled the project, which callers build their paths from. */
  private readonly spelledHome: string;
  private readonly entries: ReadonlyMap<string, PinnedEntry>;
  /** The entries' paths in walk order, for `list`. */
  private readonly ordered: readonly string[];

  /** Made by `pinProject`; `entries` are keyed by path relative to `.harnessx`, `/`-separated (`../.mcp.json` for the project's own). */
  constructor(spelledDir: string, realDir: string, digest: string, entries: ReadonlyMap<string, PinnedEntry>) {
    this.dir = realDir;
    this.digest = digest;
    this.spelledHome = join(resolve(spelledDir), ".harnessx");
    // Resolved as read() resolves folders, so a folder compares equal to itself on every system.
    this.realDir = realpathIfExists(realDir, realpathSync.native);
    this.home = realpathIfExists(join(this.realDir, ".harnessx"), realpathSync.native);
    this.entries = entries;
    this.ordered = [...entries.keys()].sort(walkOrder);
  }

  /** True when `path` (a real path, as module loaders give) lies under the project's `.harnessx`. */
  covers(path: string): boolean {
    return inside(this.home, resolve(path)) !== undefined;
  }

  /**
   * The pinned files and symlinks under `folder` (a folder under the project's `.harnessx`), by
   * path relative to it, in the order of a walk that sorts each folder's names by code unit
   * (a sub-folder's files come where its name sorts), as a knowledge bundle is read.
   */
  list(folder: string): PinnedListing[] {
    const base = this.relativeOf(folder);
    if (base === undefined) return [];
    const prefix = `${base}/`;
    return this.ordered
      .filter((path) => path.startsWith(prefix))
      .map((path) => ({ path: path.slice(prefix.length), entry: this.entries.get(path)! }));
  }

  /** The pinned entry of `path` (under the project's `.harnessx`, or its `.mcp.json`); undefined when trust never saw it. */
  entry(path: string): PinnedEntry | undefined {
    const rel = this.relativeOf(path);
    return rel === undefined ? undefined : this.entries.get(rel);
  }

  /** The bytes of a pinned file, read now and checked against the pin; a `TrustedFileError` when they are not what trust compared. */
  read(path: string): Buffer {
    const entry = this.pinnedFile(path);
    const file = this.locate(path)!;
    let fd: number;
    try {
      const parent = dirname(file);
      if (realpathSync.native(parent) !== parent) throw this.changed(path, "is now reached through a symlinked folder");
      // Without O_NOFOLLOW (Windows) the check comes before the open instead of with it.
      if (constants.O_NOFOLLOW === undefined && lstatSync(file).isSymbolicLink())
        throw this.changed(path, "was replaced by a symlink");
      fd = openSync(file, OPEN_FLAGS);
    } catch (err) {
      if (err instanceof TrustedFileError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (isMissing(err)) throw this.changed(path, "was removed");
      if (code === "ELOOP") throw this.changed(path, "was replaced by a symlink");
      throw this.refuse(path, `cannot be read (${(err as Error).message})`, REVIEW);
    }
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw this.changed(path, "is no longer a regular file");
      if (stat.size !== entry.size) throw this.changed(path, "was edited");
      // One byte more than pinned: a file that grows between fstat and read is caught too.
      const bytes = Buffer.allocUnsafe(entry.size + 1);
      let length = 0;
      while (length < bytes.length) {
        const n = readSync(fd, bytes, length, bytes.length - length, null);
        if (n === 0) break;
        length += n;
      }
      if (length !== entry.size || sha256(bytes.subarray(0, length)) !== entry.sha256)
        throw this.changed(path, "was edited");
      return bytes.subarray(0, length);
    } finally {
      closeSync(fd);
    }
  }

  /** Checks text a module loader read itself from `path` (a real path): the file must be pinned and the text hash as pinned. */
  check(path: string, text: string): void {
    const entry = this.pinnedFile(path);
    if (sha256(Buffer.from(text, "utf8")) !== entry.sha256) throw this.changed(path, "was edited");
  }

  private pinnedFile(path: string): PinnedFile {
    const entry = this.entry(path);
    if (entry?.kind === "file") return entry;
    if (entry?.kind === "link") throw this.throughLink(path, "is a symlink");
    const rel = this.relativeOf(path);
    if (rel === undefined || !isTrusted(rel))
      throw this.refuse(
        path,
        `is not under the project's trusted folders (.harnessx/{${TRUSTED_SURFACES.join(",")}}, ${TRUSTED_FILES.join(", ")})`,
        "only those are read from a trusted project",
      );
    for (let folder = rel; folder.includes("/"); ) {
      folder = folder.slice(0, folder.lastIndexOf("/"));
      if (this.entries.get(folder)?.kind === "link")
        throw this.throughLink(path, `is reached through the symlink .harnessx/${folder}`);
    }
    throw this.changed(path, "was added");
  }

  /** Where `path` is read from: under the real `.harnessx`, so a swapped `.harnessx` link changes nothing; undefined outside the project's trusted files. */
  locate(path: string): string | undefined {
    const rel = this.relativeOf(path);
    if (rel === undefined) return undefined;
    return rel.startsWith("../") ? join(this.realDir, rel.slice(3)) : join(this.home, rel);
  }

  private relativeOf(path: string): string | undefined {
    const absolute = resolve(path);
    for (const home of [this.home, join(this.dir, ".harnessx"), this.spelledHome]) {
      const rel = inside(home, absolute);
      if (rel !== undefined) return rel;
    }
    // The project's own files beside `.harnessx` (its `.mcp.json`) are named from `.harnessx` too.
    for (const project of [this.realDir, this.dir, dirname(this.spelledHome)]) {
      const rel = inside(project, absolute);
      if (rel !== undefined && !rel.includes("/")) return `../${rel}`;
    }
    return undefined;
  }

  /** The refusal of `path`, which would be read through a symlink that trust did not follow. */
  throughLink(path: string, problem: string): TrustedFileError {
    return this.refuse(path, problem, NO_LINKS);
  }

  private refuse(path: string, problem: string, remedy: string): TrustedFileError {
    return new TrustedFileError(this.dir, resolve(path), problem, remedy);
  }

  private changed(path: string, what: string): TrustedFileError {
    return this.refuse(path, `${what} since the project ${this.dir} was trusted`, REVIEW);
  }
}

/** A path relative to `.harnessx` that trust covers: under a trusted surface, or one of `TRUSTED_FILES`. */
function isTrusted(rel: string): boolean {
  return TRUSTED_SURFACES.includes(rel.split("/")[0]) || TRUSTED_FILE_ENTRIES.includes(rel);
}

/** sha256 (hex) of some bytes. */
function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The order of a walk that sorts each folder's names: paths compared segment by segment, by code unit. */
function walkOrder(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i] < right[i] ? -1 : 1;
  }
  return left.length - right.length;
}

/** `path` relative to `base` (`/`-separated) when strictly inside it. */
function inside(base: string, path: string): string | undefined {
  const rel = relative(base, path);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}
