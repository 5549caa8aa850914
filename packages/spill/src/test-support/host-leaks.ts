import { realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";

/** The host directories a read_result answer must never name: temp, home, working and any `extra` (a store root). */
export function hostDirs(extra: string[] = []): string[] {
  const dirs = [
    tmpdir(),
    realpathSync(tmpdir()),
    homedir(),
    process.cwd(),
    ...extra.flatMap((d) => [d, realpathSync(d)]),
  ];
  return [...new Set(dirs.map((d) => d.replace(/\/+$/, "")).filter((d) => d.length > 1))];
}

/**
 * The host directories named in `output` (as whole path components) that `input` did not name
 * itself: echoing the model's own text back is not a leak, learning a directory is.
 */
export function leakedDirs(output: string, input: string, dirs: string[]): string[] {
  return dirs.filter((dir) => {
    const named = new RegExp(`(?<![\\w.-])${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w.-])`);
    return named.test(output) && !named.test(input);
  });
}
