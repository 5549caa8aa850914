// The headless Chromium the report's browser tests drive, found once, and why they skip without it.
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { chromium, type Browser } from "playwright-core";

/** The Chromium the browser tests drive: CHROMIUM_PATH, else `chromium` on PATH (as `command -v chromium` finds it), else /usr/bin/chromium. */
function findChromium(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    try {
      accessSync(join(dir, "chromium"), constants.X_OK);
      return join(dir, "chromium");
    } catch {
      // not here
    }
  }
  return "/usr/bin/chromium";
}

const CHROMIUM = findChromium();
const hasChromium = existsSync(CHROMIUM);
/** Why the browser tests skip (Chromium is missing, and how to get it), or false when it is there. */
export const noChromium =
  !hasChromium &&
  `chromium not found (CHROMIUM_PATH, PATH, ${CHROMIUM}): apt-get install chromium, or set CHROMIUM_PATH`;

/** Launches the headless Chromium the browser tests drive, or gives undefined when there is none. */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!hasChromium) return undefined;
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}
