// Which files of an extensions folder are extension candidates, found by name alone, in name order.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { extensionFiles } from "./candidates.js";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";

const folders = tempFolders("hx-candidates-");
const folder = () => join(folders.project, "extensions");
const file = (name: string) => writeFileIn(join(folder(), name), "export default {};\n");

describe("extensionFiles", () => {
  test("lists .ts, .js and .mjs files by name, whatever order they were made in", () => {
    // Made in reverse so a listing in creation (or reverse creation) order is not sorted by chance.
    const names = ["e.mjs", "d.js", "c.ts", "b.ts", "a.js"];
    for (const name of names) file(name);
    assert.deepEqual(
      extensionFiles(folder()),
      [...names].reverse().map((name) => join(folder(), name)),
    );
    for (const name of ["f.ts", "g.ts", "h.ts"]) file(name);
    assert.deepEqual(
      extensionFiles(folder()).map((path) => path.slice(folder().length + 1)),
      ["a.js", "b.ts", "c.ts", "d.js", "e.mjs", "f.ts", "g.ts", "h.ts"],
    );
  });

  test("sorts by UTF-16 code unit, not by the bytes the system lists names in", () => {
    // U+1F600 is F0.. in UTF-8 but a D83D surrogate in UTF-16: it sorts after U+FF01 by bytes, before it by code unit (both after z).
    const names = ["\uFF01.ts", "\u{1F600}.ts", "z.ts"];
    for (const name of names) file(name);
    assert.deepEqual(
      extensionFiles(folder()),
      ["z.ts", "\u{1F600}.ts", "\uFF01.ts"].map((name) => join(folder(), name)),
    );
  });

  test("leaves out other files, names that only contain a source suffix, declarations and dotfiles", () => {
    for (const name of [
      "notes.md",
      "data.json",
      "x.tsx",
      "x.ts.bak",
      "x.mjs.map",
      "types.d.ts",
      ".hidden.ts",
      ".eslintrc.js",
    ])
      file(name);
    mkdirSync(join(folder(), "sub.ts"));
    assert.deepEqual(extensionFiles(folder()), []);
  });

  test("takes a folder's index.ts, else index.js, else index.mjs; a dot folder never", () => {
    for (const name of [
      "both/index.ts",
      "both/index.js",
      "js/index.js",
      "js/index.mjs",
      "mjs/index.mjs",
      "none/main.ts",
      ".git/index.ts",
    ])
      file(name);
    assert.deepEqual(
      extensionFiles(folder()),
      ["both/index.ts", "js/index.js", "mjs/index.mjs"].map((name) => join(folder(), name)),
    );
  });

  test("follows a symlink to a file, not one to a folder; a dangling link is no file", () => {
    const target = writeFileIn(join(folders.root, "elsewhere", "guard.ts"), "export default {};\n");
    mkdirSync(folder(), { recursive: true });
    symlinkSync(target, join(folder(), "linked.ts"));
    symlinkSync(join(folders.root, "missing.ts"), join(folder(), "dangling.ts"));
    symlinkSync(join(folders.root, "elsewhere"), join(folder(), "linked-folder"), "dir");
    assert.deepEqual(extensionFiles(folder()), [join(folder(), "linked.ts")]);
  });

  test("an absent folder has no files; a folder that cannot be listed is an error, not an empty folder", () => {
    assert.deepEqual(extensionFiles(join(folders.root, "absent")), []);
    symlinkSync(join(folders.root, "loop"), join(folders.root, "loop"));
    assert.throws(
      () => extensionFiles(join(folders.root, "loop")),
      (err: NodeJS.ErrnoException) => err.code === "ELOOP",
    );
  });
});
