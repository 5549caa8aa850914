import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The user's harnessx folder: `HARNESSX_HOME` when set and non-empty (an empty value would
 * silently mean the current directory), else `~/.harnessx`. `env` is `process.env` unless a
 * caller (a CLI under test) has its own. Not resolved: callers resolve against their own
 * working directory.
 */
export function harnessxHome(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.HARNESSX_HOME || join(homedir(), ".harnessx");
}

/** Where a harnessx home records the projects its user trusts. */
export function trustFilePath(home: string): string {
  return join(home, "trust.json");
}
