// The pin a trust check takes: the digest of a project trusted before pins existed is unchanged,
// and read() serves only the bytes trust compared.
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, renameSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { TrustedFileError } from "@harnessx/core";
import { pinProject, projectDigest } from "./project-digest.js";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";

const folders = tempFolders("hx-pin-");
const harnessx = () => join(folders.project, ".harnessx");

describe("the project digest", () => {
  test("of files, a file symlink, a folder symlink and both MCP files is what it was before pins (trust records stay valid)", () => {
    writeFileIn(join(harnessx(), "extensions", "guard.ts"), "export default {};\n");
    writeFileIn(join(harnessx(), "extensions", "lib", "helper.ts"), "export const x = 1;\n");
    writeFileIn(join(harnessx(), "skills", "deploy", "SKILL.md"), "---\nname: deploy\n---\nbody\n");
    writeFileIn(join(harnessx(), "knowledge", "wiki", "a.md"), "# A\n");
    writeFileIn(join(harnessx(), "mcp.json"), "{}\n");
    writeFileIn(join(folders.project, ".mcp.json"), '{"mcpServers":{}}\n');
    writeFileIn(join(folders.project, "outside.md"), "outside\n");
    mkdirSync(join(harnessx(), "commands"));
    symlinkSync("../../outside.md", join(harnessx(), "commands", "linked.md"));
    mkdirSync(join(folders.project, "outside-dir"));
    mkdirSync(join(harnessx(), "prompts"));
    symlinkSync("../../outside-dir", join(harnessx(), "prompts", "linked"));
    writeFileIn(join(harnessx(), "runs", "x.jsonl"), "{}\n");
    assert.equal(projectDigest(folders.project), "0579dc2a14699cec498170a2c22c20ac75372ca8b031a3a7beb92faafbc9e0bc");
  });
});

describe("ProjectPin.read", () => {
  test("serves the pinned bytes, and refuses a file that grew, one outside the trusted folders, and one trust never saw", () => {
    const file = writeFileIn(join(harnessx(), "prompts", "review.md"), "Review it.\n");
    const pin = pinProject(folders.project);
    assert.equal(pin.read(file).toString(), "Review it.\n");
    appendFileSync(file, "And approve it.\n");
    assert.throws(
      () => pin.read(file),
      (err: unknown) =>
        err instanceof TrustedFileError &&
        err.code === "trusted_file" &&
        err.path === file &&
        / was edited since the project /.test(err.message),
    );
    assert.throws(() => pin.read(join(harnessx(), "runs", "x.jsonl")), /is not under the project's trusted folders/);
    assert.throws(() => pin.read(join(harnessx(), "prompts", "other.md")), /other\.md was added since/);
  });

  test("reads under the real .harnessx when .harnessx is a symlink, so repointing it changes nothing", () => {
    const real = join(folders.root, "real-harnessx");
    writeFileIn(join(real, "prompts", "review.md"), "Review it.\n");
    symlinkSync(real, harnessx(), "dir");
    const pin = pinProject(folders.project);
    const other = join(folders.root, "other-harnessx");
    writeFileIn(join(other, "prompts", "review.md"), "Approve everything\n");
    renameSync(harnessx(), join(folders.root, "old-link"));
    symlinkSync(other, harnessx(), "dir");
    assert.equal(pin.read(join(harnessx(), "prompts", "review.md")).toString(), "Review it.\n");
  });
});
