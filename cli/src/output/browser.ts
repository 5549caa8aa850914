import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** How to open a file in the user's browser, or why it cannot be done here. */
export type BrowserOpener = { command: string; args: string[]; verbatim?: boolean } | { reason: string };

/** Whether an executable of this name is on `PATH` (no `which` process: the answer is a few stat calls). */
export function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/**
 * The platform's own way to open `file` with the default browser: `open` on macOS, `start` on
 * Windows, `xdg-open` elsewhere, the last only with a display (DISPLAY or WAYLAND_DISPLAY): over
 * SSH or in a container there is nothing to show a page on, and xdg-open would fall back to a
 * text browser in the terminal or fail.
 */
export function browserOpener(
  file: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  found: (name: string) => boolean = (name) => onPath(name, env),
): BrowserOpener {
  if (platform === "win32") {
    // `start` is built into cmd; its first quoted argument is a window title, hence the empty one.
    return { command: env.ComSpec || "cmd.exe", args: ["/d", "/s", "/c", `start "" "${file}"`], verbatim: true };
  }
  if (platform === "darwin")
    return found("open") ? { command: "open", args: [file] } : { reason: "the open command is not on PATH" };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { reason: "no display (DISPLAY and WAYLAND_DISPLAY are unset)" };
  return found("xdg-open") ? { command: "xdg-open", args: [file] } : { reason: "xdg-open is not on PATH" };
}

/**
 * Starts the opener, detached (the browser outlives `trace`); resolves once it started, with
 * the reason when it could not be started.
 */
export function launchBrowser(
  opener: Extract<BrowserOpener, { command: string }>,
): Promise<{ opened: true } | { opened: false; reason: string }> {
  return new Promise((resolve) => {
    const child = spawn(opener.command, opener.args, {
      detached: true,
      stdio: "ignore",
      windowsVerbatimArguments: opener.verbatim === true,
    });
    child.once("error", (error) =>
      resolve({ opened: false, reason: `${opener.command} could not be started: ${error.message}` }),
    );
    child.once("spawn", () => {
      child.unref();
      resolve({ opened: true });
    });
  });
}
