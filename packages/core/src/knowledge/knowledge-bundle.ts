import { lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isMissing } from "../discovery/fs-missing.js";

/** A folder of Markdown and text files an agent may search and read (`knowledge/<name>/`). */
export interface KnowledgeSource {
  /** The bundle's name, by which the knowledge tools address it (its folder's name when discovered). */
  readonly name: string;
  /** The folder the files are read from, subfolders included. */
  readonly dir: string;
  /** Where the bundle came from: `builtin` when passed in code, else the trust level of the folder it was found in. */
  readonly level: "builtin" | "user" | "project";
}

/** One file of a bundle: its path inside the bundle (`/`-separated) and its text. */
interface KnowledgeFile {
  path: string;
  text: string;
  /** The text lowercased once, for every search. */
  lower: string;
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

/** What a bundle reads at most: a folder must not turn into a memory or time sink. */
export const KNOWLEDGE_LIMITS = {
  /** Files read per bundle; later ones (in name order) are skipped. */
  maxFiles: 2_000,
  /** Size of one file, in bytes; a larger file is skipped. */
  maxFileBytes: 1024 * 1024,
  /** Size of all files read from a bundle together, in bytes; a file that would pass it is skipped. */
  maxTotalBytes: 32 * 1024 * 1024,
} as const;

const TEXT_FILE = /\.(md|markdown|txt|text|rst)$/i;

/**
 * A knowledge bundle's files, read on first use (Markdown and text only, dotfiles skipped,
 * symlinks not followed, at most `KNOWLEDGE_LIMITS`), searched by words and read by path.
 */
export class KnowledgeBundle {
  private files: KnowledgeFile[] | undefined;

  constructor(
    /** The bundle's name, folder and origin. */
    readonly source: KnowledgeSource,
  ) {}

  private load(): KnowledgeFile[] {
    if (this.files) return this.files;
    const files: KnowledgeFile[] = [];
    let total = 0;
    const root = realpathSync(this.source.dir);
    const walk = (dir: string) => {
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      for (const name of names) {
        if (name.startsWith(".") || files.length >= KNOWLEDGE_LIMITS.maxFiles) continue;
        const path = join(dir, name);
        const stat = lstatSync(path);
        if (stat.isDirectory()) walk(path);
        else if (stat.isFile() && TEXT_FILE.test(name) && stat.size <= KNOWLEDGE_LIMITS.maxFileBytes && total + stat.size <= KNOWLEDGE_LIMITS.maxTotalBytes) {
          total += stat.size;
          const text = readFileSync(path, "utf8");
          files.push({ path: relative(root, path).split(sep).join("/"), text, lower: text.toLowerCase() });
        }
      }
    };
    walk(root);
    this.files = files;
    return files;
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
    const words = [...new Set(query.toLowerCase().split(/\W+/).filter((w) => w.length > 1))];
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
