import type { ProjectPin } from "../discovery/project-pin.js";
import { readBundleFiles, type KnowledgeFile } from "./knowledge-files.js";

export { KNOWLEDGE_LIMITS } from "./knowledge-files.js";

/** A folder of Markdown and text files an agent may search and read (`knowledge/<name>/`). */
export interface KnowledgeSource {
  /** The bundle's name, by which the knowledge tools address it (its folder's name when discovered). */
  readonly name: string;
  /** The folder the files are read from, subfolders included. */
  readonly dir: string;
  /** Where the bundle came from: `builtin` when passed in code, else the trust level of the folder it was found in. */
  readonly level: "builtin" | "user" | "project";
  /** A trusted project's pin (`discover()` sets it for the project's bundles): the files are read through it. */
  readonly pin?: ProjectPin;
}

/** One search hit: a file, the first matching line and how many of the query's words it holds. */
export interface KnowledgeHit {
  /** The file's path inside the bundle, `/`-separated. */
  path: string;
  /** The 1-based number of the first line holding one of the words. */
  line: number;
  /** That line, trimmed and cut to 200 characters. */
  snippet: string;
  /** How many of the query's distinct words the file holds. */
  score: number;
}

/**
 * A knowledge bundle's files, read on first use (Markdown and text only, dotfiles skipped,
 * symlinks not followed, at most `KNOWLEDGE_LIMITS`), searched by words and read by path. A
 * trusted project's bundle is read through its pin, and throws a `TrustedFileError` when it
 * changed since the trust check; what a first use read is served from then on.
 */
export class KnowledgeBundle {
  private files: KnowledgeFile[] | undefined;

  constructor(
    /** The bundle's name, folder and origin. */
    readonly source: KnowledgeSource,
  ) {}

  private load(): KnowledgeFile[] {
    this.files ??= readBundleFiles(this.source.dir, this.source.pin);
    return this.files;
  }

  /**
   * Files holding the query's words (case-insensitive; words of one character are ignored),
   * best first: most words, then by path.
   */
  search(
    query: string,
    limit: number,
  ): {
    /** The best `limit` hits. */
    hits: KnowledgeHit[];
    /** How many files matched in all. */
    total: number;
  } {
    const words = [
      ...new Set(
        query
          .toLowerCase()
          .split(/\W+/)
          .filter((w) => w.length > 1),
      ),
    ];
    if (words.length === 0) return { hits: [], total: 0 };
    const scored: KnowledgeHit[] = [];
    for (const file of this.load()) {
      const present = words.filter((w) => file.lower.includes(w));
      if (present.length === 0) continue;
      const lines = file.text.split("\n");
      const at = lines.findIndex((l) => present.some((w) => l.toLowerCase().includes(w)));
      scored.push({ path: file.path, line: at + 1, snippet: lines[at].trim().slice(0, 200), score: present.length });
    }
    scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
    return { hits: scored.slice(0, limit), total: scored.length };
  }

  /** A file's text by its path inside the bundle; undefined for anything else (no path leads outside). */
  read(path: string): string | undefined {
    return this.load().find((f) => f.path === path)?.text;
  }

  /** Every readable path, for a model that asked for one that is not there. */
  paths(): string[] {
    return this.load().map((f) => f.path);
  }
}
