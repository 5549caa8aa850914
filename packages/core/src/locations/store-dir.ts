import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The folder name of a store (recordings, artifacts, spills). */
export const STORE_FOLDER = ".harnessx";

/**
 * The one default store every built-in writes to (the flight recorder, result spilling):
 * `HARNESSX_DIR` when set and non-empty, else `.harnessx` in the working directory.
 */
export function defaultStoreDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.HARNESSX_DIR || STORE_FOLDER;
}

/**
 * The store a reader means, found as git finds its repository: `HARNESSX_DIR` when set, else
 * the nearest `.harnessx` holding recordings (`runs/`) from `cwd` up to the root, else
 * `.harnessx` in `cwd` (which may not exist yet). A user folder without recordings is passed by.
 */
export function findStoreDir(cwd: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.HARNESSX_DIR) return resolve(cwd, env.HARNESSX_DIR);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (statSync(join(dir, STORE_FOLDER, "runs"), { throwIfNoEntry: false })?.isDirectory())
      return join(dir, STORE_FOLDER);
    if (dirname(dir) === dir) return resolve(cwd, STORE_FOLDER);
  }
}

/** What `noteStoreDir` needs of an extension context: the agent's shared state. */
interface SharedState {
  getState<T>(key: string): T | undefined;
  setState(key: string, value: unknown): void;
}

const STORE_KEY = "harnessx.store";

/**
 * Records which store an extension of the agent writes to; a second extension naming another
 * store gets a process warning (`HARNESSX_STORE_MISMATCH`): a bundle would then miss the
 * artifacts kept in the other one.
 */
export function noteStoreDir(ctx: SharedState, extension: string, dir: string): void {
  const mine = resolve(dir);
  const first = ctx.getState<{ extension: string; dir: string }>(STORE_KEY);
  if (!first) {
    ctx.setState(STORE_KEY, { extension, dir: mine });
    return;
  }
  if (first.dir !== mine) {
    process.emitWarning(
      `${extension} writes to ${mine} but ${first.extension} writes to ${first.dir}: incident bundles will miss what the other store holds. Give both the same folder (or set HARNESSX_DIR).`,
      { code: "HARNESSX_STORE_MISMATCH" },
    );
  }
}
