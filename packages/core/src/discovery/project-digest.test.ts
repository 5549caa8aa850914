import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ProjectDigestError } from "../errors.js";
import { projectDigest } from "./project-digest.js";
import { tempFolders, writeFileIn } from "../test-support/folders.js";

const folders = tempFolders("hx-digest-");

const projectFile = (name: string, text: string) => writeFileIn(join(folders.project, ".harnessx", "extensions", name), text);

describe("project digest", () => {
  test("is stable, and depends on paths and contents of the trusted surfaces only", () => {
    const empty = projectDigest(folders.project);
    projectFile("a.ts", "1");
    const one = projectDigest(folders.project);
    assert.notEqual(one, empty);
    assert.equal(projectDigest(folders.project), one);
    writeFileIn(join(folders.project, ".harnessx", "runs", "x.jsonl"), "{}");
    assert.equal(projectDigest(folders.project), one);
    projectFile("a.ts", "2");
    assert.notEqual(projectDigest(folders.project), one);
    rmSync(join(folders.project, ".harnessx", "extensions", "a.ts"));
    projectFile("b.ts", "2");
    assert.notEqual(projectDigest(folders.project), one);
  });

  test("a file symlink counts its target and its content", () => {
    const target = writeFileIn(join(folders.root, "outside.ts"), "1");
    mkdirSync(join(folders.project, ".harnessx", "extensions"), { recursive: true });
    symlinkSync(target, join(folders.project, ".harnessx", "extensions", "linked.ts"));
    const before = projectDigest(folders.project);
    writeFileSync(target, "2");
    assert.notEqual(projectDigest(folders.project), before);
  });

  test("more than 10,000 files is a ProjectDigestError, not a hang", () => {
    const folder = join(folders.project, ".harnessx", "extensions", "generated");
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i <= 10_000; i++) writeFileSync(join(folder, `f${i}`), "");
    assert.throws(() => projectDigest(folders.project), (err: unknown) => err instanceof ProjectDigestError && err.code === "project_digest" && /more than 10000 files/.test(err.message));
  });
});
