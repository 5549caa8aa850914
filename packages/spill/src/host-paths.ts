import { realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { isAbsolute, parse, resolve } from "node:path";

export interface HostDir {
  path: string | undefined;
  /** What the model sees instead, e.g. "<cwd>". */
  label: string;
}

interface Rule {
  pattern: RegExp;
  label: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The spellings of `dir` that can reach text: as given, resolved through links, and JSON-escaped. */
function spellings(dir: string): string[] {
  const forms = new Set<string>();
  for (const path of [dir, resolve(dir), realOrSelf(dir)]) {
    const trimmed = path.length > parse(path).root.length ? path.replace(/[\\/]+$/, "") : path;
    forms.add(trimmed);
    forms.add(JSON.stringify(trimmed).slice(1, -1));
  }
  return [...forms];
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/**
 * Replaces absolute host directories in text bound for the model by placeholders. Only whole path
 * components match ("/root" is not replaced inside "/rootfs" or "/x/root"), the longest directory
 * first, and a filesystem root alone is never replaced: it reveals nothing.
 */
export class HostPaths {
  private readonly rules: Rule[];

  constructor(dirs: HostDir[]) {
    const rules: Array<Rule & { length: number }> = [];
    for (const { path, label } of dirs) {
      if (!path || !isAbsolute(path)) continue;
      for (const form of spellings(path)) {
        if (form.length <= parse(form).root.length + 1) continue;
        rules.push({
          pattern: new RegExp(`(?<![\\w.-])${escapeRegExp(form)}(?![\\w.-])`, "g"),
          label,
          length: form.length,
        });
      }
    }
    this.rules = rules.sort((a, b) => b.length - a.length);
  }

  /** The agent's directories a spill can touch: its working, home and temp directories and `extra`. */
  static ofHost(extra: HostDir[]): HostPaths {
    return new HostPaths([
      ...extra,
      { path: process.cwd(), label: "<cwd>" },
      { path: homedir(), label: "~" },
      { path: tmpdir(), label: "<tmp>" },
    ]);
  }

  scrub(text: string): string {
    let out = text;
    for (const rule of this.rules) out = out.replace(rule.pattern, rule.label);
    return out;
  }
}
