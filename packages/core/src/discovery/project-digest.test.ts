import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";
import { ProjectDigestError } from "../errors.js";
import { projectDigest } from "./project-digest.js";

let root: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "hx-digest-"));
  project = join(root, "project");
  mkdirSync(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}
const projectFile = (name: string, text: string) => write(join(project, ".harnessx", "extensions", name), text);

describe("project digest", () => {
  test("is stable, and depends on paths and contents of the trusted surfaces only", () => {
    const empty = projectDigest(project);
    projectFile("a.ts", "1");
    const one = projectDigest(project);
    assert.notEqual(one, empty);
    assert.equal(projectDigest(project), one);
    write(join(project, ".harnessx", "runs", "x.jsonl"), "{}");
    assert.equal(projectDigest(project), one);
    projectFile("a.ts", "2");
    assert.notEqual(projectDigest(project), one);
    rmSync(join(project, ".harnessx", "extensions", "a.ts"));
    projectFile("b.ts", "2");
    assert.notEqual(projectDigest(project), one);
  });

  test("a file symlink counts its target and its content", () => {
    const target = write(join(root, "outside.ts"), "1");
    mkdirSync(join(project, ".harnessx", "extensions"), { recursive: true });
    symlinkSync(target, join(project, ".harnessx", "extensions", "linked.ts"));
    const before = projectDigest(project);
    writeFileSync(target, "2");
    assert.notEqual(projectDigest(project), before);
  });

  test("more than 10,000 files is a ProjectDigestError, not a hang", () => {
    const folder = join(project, ".harnessx", "extensions", "generated");
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i <= 10_000; i++) writeFileSync(join(folder, `f${i}`), "");
    assert.throws(() => projectDigest(project), (err: unknown) => err instanceof ProjectDigestError && err.code === "project_digest" && /more than 10000 files/.test(err.message));
  });
});
