import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isMissing, realpathIfExists } from "../discovery/fs-missing.js";
import type { ProjectPin } from "../discovery/project-pin.js";

/** What a bundle reads at most: a folder must not turn into a memory or time sink. */
export const KNOWLEDGE_LIMITS = {
  /** Files read per bundle; later ones (in name order) are skipped. */
  maxFiles: 2_000,
  /** Size of one file, in bytes; a larger file is skipped. */
  maxFileBytes: 1024 * 1024,
  /** Size of all files read from a bundle together, in bytes; a file that would pass it is skipped. */
  maxTotalBytes: 32 * 1024 * 1024,
} as const;

/** One file of a bundle: its path inside the bundle (`/`-separated) and its text. */
export interface KnowledgeFile {
  path: string;
  text: string;
  /** The text lowercased once, for every search. */
  lower: string;
}

/** A regular file found in a bundle: its path inside it (`/`-separated) and its size. */
interface Listed {
  path: string;
  size: number;
}

const TEXT_FILE = /\.(md|markdown|txt|text|rst)$/i;

/**
 * The files of the bundle in `dir`, read now. Without a pin they are read from disk. With one
 * (a trusted project's bundle) they are exactly the files the pin holds, each read through it:
 * a file edited, removed or replaced by a symlink, a bundle folder replaced by a symlink, or a
 * file added since the trust check throws a `TrustedFileError` and nothing of the bundle is read.
 */
export function readBundleFiles(dir: string, pin?: ProjectPin): KnowledgeFile[] {
  if (!pin) {
    const root = realpathIfExists(dir);
    return [...select(walk(root))].map(({ path }) => knowledgeFile(path, readFileSync(join(root, path), "utf8")));
  }
  const pinned = [
    ...select(pin.list(dir).flatMap(({ path, entry }) => (entry.kind === "file" ? [{ path, size: entry.size }] : []))),
  ];
  const known = new Set(pinned.map((f) => f.path));
  // A file trust never saw: reading it through the pin refuses it, naming it as added.
  for (const { path } of select(walk(dir))) if (!known.has(path)) pin.read(join(dir, path));
  return pinned.map(({ path }) => knowledgeFile(path, pin.read(join(dir, path)).toString("utf8")));
}

function knowledgeFile(path: string, text: string): KnowledgeFile {
  return { path, text, lower: text.toLowerCase() };
}

/** The files a bundle serves, in walk order: text files outside dot folders, within `KNOWLEDGE_LIMITS`. */
function* select(listed: Iterable<Listed>): Generator<Listed> {
  let count = 0;
  let total = 0;
  for (const file of listed) {
    if (count >= KNOWLEDGE_LIMITS.maxFiles) return;
    if (file.path.split("/").some((segment) => segment.startsWith(".")) || !TEXT_FILE.test(file.path)) continue;
    if (file.size > KNOWLEDGE_LIMITS.maxFileBytes || total + file.size > KNOWLEDGE_LIMITS.maxTotalBytes) continue;
    count++;
    total += file.size;
    yield file;
  }
}

/** Regular files under `root` in walk order (each folder's names sorted); symlinks, the root included, are never followed. */
function* walk(root: string, prefix = ""): Generator<Listed> {
  const folder = prefix ? join(root, prefix) : root;
  let names: string[];
  try {
    if (!prefix && lstatSync(root).isSymbolicLink()) return;
    names = readdirSync(folder).sort();
  } catch (err) {
    if (isMissing(err)) return;
    throw err;
  }
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = prefix ? `${prefix}/${name}` : name;
    const stat = lstatSync(join(root, path), { throwIfNoEntry: false });
    if (stat?.isDirectory()) yield* walk(root, path);
    else if (stat?.isFile()) yield { path, size: stat.size };
  }
}
