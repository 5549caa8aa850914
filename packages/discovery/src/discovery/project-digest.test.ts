import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ProjectDigestError } from "@harnessx/core";
import { projectDigest } from "./project-digest.js";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";
import { makeFifo } from "../../../../test/support/system.js";

const folders = tempFolders("hx-digest-");
/**
 * The digest of the link test below: sha256 of "harnessx.project-digest.v1\n" then one JSON line per entry,
 * ["link",path,target,"none"|"directory"]. Trust records hold it, so it must never change.
 */
const GOLDEN = "b4dc58bcc8adc0d9b43850ebe2fed1203499c0838cc509e6650a11cb838cbd71";

const projectFile = (name: string, text: string) =>
  writeFileIn(join(folders.project, ".harnessx", "extensions", name), text);

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

  test("10,000 files are digested; one more is a ProjectDigestError naming the surfaces, not a hang", () => {
    const folder = join(folders.project, ".harnessx", "extensions", "generated");
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 10_000; i++) writeFileSync(join(folder, `f${i}`), "");
    assert.match(projectDigest(folders.project), /^[0-9a-f]{64}$/);
    writeFileSync(join(folder, "one-more"), "");
    assert.throws(
      () => projectDigest(folders.project),
      (err: unknown) =>
        err instanceof ProjectDigestError &&
        err.code === "project_digest" &&
        err.message.includes(
          "more than 10000 files under extensions, skills, commands, prompts, knowledge; trust covers at most 10000: remove generated files from these folders",
        ),
    );
  });
});

describe("entries that are not plain files", () => {
  test("a FIFO is left out (reading it would block) and a dangling link counts by its target", () => {
    const extensions = join(folders.project, ".harnessx", "extensions");
    writeFileIn(join(extensions, "a.ts"), "1");
    const plain = projectDigest(folders.project);
    makeFifo(join(extensions, "pipe"));
    assert.equal(projectDigest(folders.project), plain, "a FIFO adds nothing");
    symlinkSync(join(folders.root, "missing.ts"), join(extensions, "dangling.ts"));
    // The value trust records pin: a dangling link is ["link", path, target, "none"].
    const dangling = projectDigest(folders.project);
    assert.notEqual(dangling, plain);
    rmSync(join(extensions, "dangling.ts"));
    symlinkSync("missing.ts", join(extensions, "dangling.ts"));
    assert.notEqual(projectDigest(folders.project), dangling, "the target as written counts");
  });

  test("the digest of a dangling link and a folder link is stable across versions", () => {
    const extensions = join(folders.project, ".harnessx", "extensions");
    mkdirSync(join(folders.project, "dir"));
    mkdirSync(extensions, { recursive: true });
    symlinkSync("../../missing.ts", join(extensions, "dangling.ts"));
    symlinkSync("../../dir", join(extensions, "folder"));
    assert.equal(projectDigest(folders.project), GOLDEN);
  });

  test("a symlink loop is a ProjectDigestError naming the entry, with the system's error as cause", () => {
    const extensions = join(folders.project, ".harnessx", "extensions");
    mkdirSync(extensions, { recursive: true });
    symlinkSync("loop.ts", join(extensions, "loop.ts"));
    assert.throws(
      () => projectDigest(folders.project),
      (err: unknown) =>
        err instanceof ProjectDigestError &&
        err.message.includes("cannot read extensions/loop.ts: ") &&
        (err.cause as NodeJS.ErrnoException | undefined)?.code === "ELOOP",
    );
  });

  test("hashing leaves no file open", { skip: !existsSync("/proc/self/fd") && "needs /proc/self/fd" }, () => {
    for (let i = 0; i < 20; i++) writeFileIn(join(folders.project, ".harnessx", "skills", `s${i}`, "SKILL.md"), `${i}`);
    const before = readdirSync("/proc/self/fd").length;
    projectDigest(folders.project);
    assert.equal(readdirSync("/proc/self/fd").length, before);
  });
});
