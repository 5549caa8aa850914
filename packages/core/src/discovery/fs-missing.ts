/**
 * True when a path (or one of its parents) does not exist as a folder. Discovery treats an absent
 * folder as empty, so a project or user without extensions needs no setup.
 */
export function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
