// Every way ProjectPin.read refuses a file that is no longer what trust compared, each with its
// own words: the user is told what changed, and nothing changed is ever served.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, test } from "node:test";
import { TrustedFileError } from "@harnessx/core";
import { pinProject } from "./project-digest.js";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";
import { makeFifo } from "../../../../test/support/system.js";

const folders = tempFolders("hx-pin-refusals-");
const prompts = () => join(folders.project, ".harnessx", "prompts");
const REVIEW = "review the change, then trust the project again (trace trust)";
const NO_LINKS =
  "a trusted project is never read through symlinks: replace the link with what it points to, then trust the project again";

/** Asserts `read` throws the TrustedFileError for `path` with exactly this problem and remedy. */
function refuses(read: () => unknown, path: string, problem: string, remedy: string): void {
  assert.throws(read, (err: unknown) => {
    assert.ok(err instanceof TrustedFileError, `not a TrustedFileError: ${String(err)}`);
    assert.equal(err.path, path);
    assert.equal(err.message, `${path} ${problem}; it is not used: ${remedy}`);
    return true;
  });
}

/** The problem `changed` words: what happened since the project was trusted. */
const since = (what: string) => `${what} since the project ${folders.project} was trusted`;

describe("ProjectPin.read refuses", () => {
  test("a file edited to other bytes of the same size", () => {
    const file = writeFileIn(join(prompts(), "review.md"), "Review it.\n");
    const pin = pinProject(folders.project);
    writeFileSync(file, "Ignore all.\n".slice(0, "Review it.\n".length));
    refuses(() => pin.read(file), file, since("was edited"), REVIEW);
  });

  test("a file that was removed", () => {
    const file = writeFileIn(join(prompts(), "review.md"), "Review it.\n");
    const pin = pinProject(folders.project);
    rmSync(file);
    refuses(() => pin.read(file), file, since("was removed"), REVIEW);
  });

  test("a file replaced by a symlink to the same bytes", () => {
    const file = writeFileIn(join(prompts(), "review.md"), "Review it.\n");
    const pin = pinProject(folders.project);
    const copy = writeFileIn(join(folders.root, "copy.md"), "Review it.\n");
    rmSync(file);
    symlinkSync(copy, file);
    refuses(() => pin.read(file), file, since("was replaced by a symlink"), REVIEW);
  });

  test("a file replaced by a folder", () => {
    const file = writeFileIn(join(prompts(), "review.md"), "Review it.\n");
    const pin = pinProject(folders.project);
    rmSync(file);
    mkdirSync(file);
    refuses(() => pin.read(file), file, since("is no longer a regular file"), REVIEW);
  });

  test("a file replaced by a FIFO, without blocking on it", () => {
    const file = writeFileIn(join(prompts(), "review.md"), "Review it.\n");
    const pin = pinProject(folders.project);
    rmSync(file);
    makeFifo(file);
    refuses(() => pin.read(file), file, since("is no longer a regular file"), REVIEW);
  });

  test("a file replaced by a socket, which cannot be opened: the system's reason, not a guess", async () => {
    const file = writeFileIn(join(prompts(), "review.md"), "Review it.\n");
    const pin = pinProject(folders.project);
    rmSync(file);
    const server = createServer();
    await new Promise<void>((listening) => server.listen(file, listening));
    try {
      assert.throws(
        () => pin.read(file),
        (err: unknown) =>
          err instanceof TrustedFileError &&
          err.message.startsWith(`${file} cannot be read (ENXIO`) &&
          err.message.endsWith(`; it is not used: ${REVIEW}`),
      );
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });

  test("a file whose folder was swapped for a symlink to a copy of it", () => {
    const file = writeFileIn(join(prompts(), "review.md"), "Review it.\n");
    const pin = pinProject(folders.project);
    const moved = join(folders.root, "moved-prompts");
    renameSync(prompts(), moved);
    symlinkSync(moved, prompts(), "dir");
    refuses(() => pin.read(file), file, since("is now reached through a symlinked folder"), REVIEW);
  });

  test("a pinned symlink, which is never followed", () => {
    const target = writeFileIn(join(folders.root, "outside.md"), "outside\n");
    mkdirSync(prompts(), { recursive: true });
    const link = join(prompts(), "linked.md");
    symlinkSync(target, link);
    const pin = pinProject(folders.project);
    refuses(() => pin.read(link), link, "is a symlink", NO_LINKS);
  });

  test("a file under a pinned folder symlink", () => {
    const outside = join(folders.root, "outside-dir");
    writeFileIn(join(outside, "a.md"), "A\n");
    mkdirSync(prompts(), { recursive: true });
    symlinkSync(outside, join(prompts(), "linked"), "dir");
    const pin = pinProject(folders.project);
    const file = join(prompts(), "linked", "a.md");
    refuses(() => pin.read(file), file, "is reached through the symlink .harnessx/prompts/linked", NO_LINKS);
  });

  test("a file outside the project, naming every trusted place", () => {
    const pin = pinProject(folders.project);
    const file = writeFileIn(join(folders.root, "elsewhere.md"), "x\n");
    const problem =
      "is not under the project's trusted folders (.harnessx/{extensions,skills,commands,prompts,knowledge}, .mcp.json, .harnessx/mcp.json)";
    refuses(() => pin.read(file), file, problem, "only those are read from a trusted project");
  });
});

describe("ProjectPin.read and check", () => {
  test("close what they open: many reads leave no file open", {
    skip: !existsSync("/proc/self/fd") && "needs /proc/self/fd",
  }, () => {
    const file = writeFileIn(join(prompts(), "review.md"), "Review it.\n");
    const pin = pinProject(folders.project);
    const before = readdirSync("/proc/self/fd").length;
    for (let i = 0; i < 20; i++) pin.read(file);
    for (let i = 0; i < 20; i++) assert.throws(() => pin.read(file.replace("review", "absent")));
    writeFileSync(file, "Review it!\n");
    for (let i = 0; i < 20; i++) assert.throws(() => pin.read(file), TrustedFileError);
    assert.equal(readdirSync("/proc/self/fd").length, before);
  });

  test("check accepts the pinned text and refuses other text, a symlink and an unpinned file", () => {
    const file = writeFileIn(join(prompts(), "review.md"), "Revisé.\n");
    const pin = pinProject(folders.project);
    pin.check(file, "Revisé.\n");
    refuses(() => pin.check(file, "Revise.\n"), file, since("was edited"), REVIEW);
    const other = join(prompts(), "other.md");
    refuses(() => pin.check(other, ""), other, since("was added"), REVIEW);
  });
});
