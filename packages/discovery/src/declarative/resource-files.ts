import { readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import { basename, join } from "node:path";
import { isMissing } from "../discovery/fs-missing.js";
import type { ProjectPin } from "../discovery/project-pin.js";
import { parseFrontmatter, type MarkdownDocument } from "./frontmatter.js";

/** The data-only surfaces a harnessx folder may hold besides code: `skills/`, `commands/`, `prompts/`. */
export type ResourceKind = "skill" | "command" | "prompt" | "knowledge";

/** A folder holding them (`~/.harnessx`, or a trusted project's `.harnessx`) and its trust level. */
export interface ResourceRoot {
  /** The folder, holding `skills/`, `commands/`, `prompts/` and `knowledge/`. */
  readonly dir: string;
  /** The trust level of what is read from it. */
  readonly level: "user" | "project";
  /** A trusted project's pin (`discover()` sets it): its files are read through it, and refused when changed since the trust check. */
  readonly pin?: ProjectPin;
}

/** One resource file found by name. */
export interface ResourceFile {
  readonly kind: ResourceKind;
  readonly path: string;
  readonly level: "user" | "project";
  /** The name its location gives it: the skill's folder, the command's or template's file name without `.md`. */
  readonly name: string;
}

/** A resource file (or MCP configuration) left out, and why (naming the field at fault). */
export interface InvalidResource {
  /** What the file would have been. */
  readonly kind: ResourceKind | "mcp";
  /** The file or folder left out. */
  readonly path: string;
  /** The trust level of the root it was found in. */
  readonly level: "user" | "project";
  /** Why it was left out, in words for the user. */
  readonly reason: string;
}

/** A resource file is read whole; past this it is refused (a runaway file must not stall every start). */
export const MAX_RESOURCE_BYTES = 256 * 1024;

const FOLDER: Record<ResourceKind, string> = {
  skill: "skills",
  command: "commands",
  prompt: "prompts",
  knowledge: "knowledge",
};

/** The folder of `root` where resources of `kind` live. */
export function resourceFolder(root: string, kind: ResourceKind): string {
  return join(root, FOLDER[kind]);
}

/**
 * The resource files of one kind under `root`, sorted by name, found by name alone: skills are
 * `skills/<name>/SKILL.md`, commands `commands/<name>.md`, templates `prompts/<name>.md`,
 * knowledge bundles `knowledge/<name>/` (the folder).
 * Dotfiles are skipped and symlinked folders not followed (as the project digest does not follow them).
 */
export function resourceFiles(root: ResourceRoot, kind: ResourceKind): ResourceFile[] {
  const folder = resourceFolder(root.dir, kind);
  const files: ResourceFile[] = [];
  for (const entry of entriesOf(folder)) {
    if (entry.name.startsWith(".")) continue;
    const path = join(folder, entry.name);
    if (kind === "knowledge") {
      if (entry.isDirectory()) files.push({ kind, path, level: root.level, name: entry.name });
    } else if (kind === "skill") {
      if (entry.isDirectory() && isFile(join(path, "SKILL.md")))
        files.push({ kind, path: join(path, "SKILL.md"), level: root.level, name: entry.name });
    } else if (entry.name.endsWith(".md") && isFile(path)) {
      files.push({ kind, path, level: root.level, name: basename(entry.name, ".md") });
    }
  }
  return files;
}

/** A resource file's frontmatter and body, or the reason it cannot be read; through `pin` when it has one. */
export function readResource(file: ResourceFile, pin?: ProjectPin): MarkdownDocument | { reason: string } {
  try {
    const pinned = pin?.entry(file.path);
    const size = pin ? (pinned?.kind === "file" ? pinned.size : 0) : statSync(file.path).size;
    if (size > MAX_RESOURCE_BYTES)
      return { reason: `it is ${size} bytes; a ${file.kind} file may hold at most ${MAX_RESOURCE_BYTES}` };
    return parseFrontmatter(pin ? pin.read(file.path).toString("utf8") : readFileSync(file.path, "utf8"));
  } catch (err) {
    return { reason: (err as Error).message };
  }
}

function entriesOf(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}
