// What counts as missing (an absent discovery folder is empty), and what is an error to report.
import assert from "node:assert/strict";
import { realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { isMissing, realpathIfExists } from "./fs-missing.js";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";

const folders = tempFolders("hx-fs-missing-");

describe("isMissing", () => {
  test("an absent path and a path through a file are missing; other errors and non-errors are not", () => {
    assert.equal(isMissing(Object.assign(new Error("absent"), { code: "ENOENT" })), true);
    assert.equal(isMissing(Object.assign(new Error("through a file"), { code: "ENOTDIR" })), true);
    for (const code of ["ELOOP", "EACCES", "EISDIR", ""])
      assert.equal(isMissing(Object.assign(new Error(code), { code })), false, code);
    assert.equal(isMissing(undefined), false);
    assert.equal(isMissing(null), false);
  });
});

describe("realpathIfExists", () => {
  test("resolves a link; gives back a path that is absent or leads through a file", () => {
    const link = join(folders.root, "link");
    symlinkSync(folders.project, link, "dir");
    assert.equal(realpathIfExists(link), realpathSync(folders.project));
    const absent = join(folders.root, "absent", "x");
    assert.equal(realpathIfExists(absent), absent);
    const throughFile = join(writeFileIn(join(folders.root, "file"), "x"), "child");
    assert.equal(realpathIfExists(throughFile), throughFile);
  });

  test("a symlink loop is an error, not a path that does not exist", () => {
    const loop = join(folders.root, "loop");
    symlinkSync(loop, loop);
    assert.throws(
      () => realpathIfExists(loop),
      (err: NodeJS.ErrnoException) => err.code === "ELOOP",
    );
    assert.throws(
      () => realpathIfExists(loop, realpathSync.native),
      (err: NodeJS.ErrnoException) => err.code === "ELOOP",
    );
  });
});
