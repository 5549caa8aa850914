import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach } from "node:test";

/** Folders of one test: a fresh root holding `home` (a user folder, not created) and `project` (created). */
export interface TestFolders {
  root: string;
  home: string;
  project: string;
}

/** Gives each test of the calling file fresh folders (filled in before it runs) and removes them after it. */
export function tempFolders(prefix: string): TestFolders {
  const folders: TestFolders = { root: "", home: "", project: "" };
  beforeEach(() => {
    folders.root = mkdtempSync(join(tmpdir(), prefix));
    folders.home = join(folders.root, "home");
    folders.project = join(folders.root, "project");
    mkdirSync(folders.project);
  });
  afterEach(() => rmSync(folders.root, { recursive: true, force: true }));
  return folders;
}

/** Writes a file, creating its folders; returns its path. */
export function writeFileIn(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}
