import { readdirSync, statSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { isMissing } from "./fs-missing.js";

const SOURCE = /\.(ts|js|mjs)$/;
/** Tried in this order, so a folder holding its source and its build output loads the source. */
const INDEX_FILES = ["index.ts", "index.js", "index.mjs"];

/**
 * The extension files of one extensions folder, sorted by name, found by name alone (nothing is
 * imported): top-level `*.ts`, `*.js`, `*.mjs` files and `<name>/index.{ts,js,mjs}` folders.
 * Dotfiles and `.d.ts` files are not code to run. Symlinked folders are not followed, as the
 * project digest does not follow them either; an absent folder has no files.
 */
export function extensionFiles(folder: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith(".")) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      const index = INDEX_FILES.map((name) => join(path, name)).find(isFile);
      if (index) files.push(index);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") && isFile(path)) {
      files.push(path);
    }
  }
  return files;
}

/** A regular file, or a symlink to one. */
function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}
