import { realpathSync } from "node:fs";

/**
 * True when a path (or one of its parents) does not exist as a folder. Discovery treats an absent
 * folder as empty, so a project or user without extensions needs no setup.
 */
export function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The real path of `path` (by `resolver`), or `path` itself when it does not exist (yet, or any more). */
export function realpathIfExists(path: string, resolver: (path: string) => string = realpathSync): string {
  try {
    return resolver(path);
  } catch (err) {
    if (isMissing(err)) return path;
    throw err;
  }
}
