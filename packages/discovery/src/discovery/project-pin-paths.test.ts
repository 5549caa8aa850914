// How a ProjectPin names the project's files: which paths it knows (spelled through a symlinked
// project folder too), where it reads them from, and the walk order `list` gives a folder in.
import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { pinProject } from "./project-digest.js";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";

const folders = tempFolders("hx-pin-paths-");
const harnessx = () => join(folders.project, ".harnessx");

describe("ProjectPin.list", () => {
  test("gives a folder's pinned entries relative to it, each folder's names sorted by code unit", () => {
    const knowledge = join(harnessx(), "knowledge");
    for (const name of ["wiki-old.md", "wiki/z/b.md", "wiki/a.md", "a.md", "wiki.md"])
      writeFileIn(join(knowledge, name), `${name}\n`);
    writeFileIn(join(harnessx(), "prompts", "p.md"), "p\n");
    const pin = pinProject(folders.project);
    // Plain string order would put wiki-old.md ('-' < '/') and wiki.md before the wiki folder's files.
    const listed = pin.list(knowledge);
    assert.deepEqual(
      listed.map((entry) => entry.path),
      ["a.md", "wiki/a.md", "wiki/z/b.md", "wiki-old.md", "wiki.md"],
    );
    assert.deepEqual(listed[0]!.entry, pin.entry(join(knowledge, "a.md")));
    assert.equal(listed[0]!.entry.kind, "file");
    assert.deepEqual(
      pin.list(join(knowledge, "wiki")).map((entry) => entry.path),
      ["a.md", "z/b.md"],
    );
  });

  test("gives nothing for a folder outside the project, or one with no pinned files", () => {
    writeFileIn(join(harnessx(), "knowledge", "a.md"), "a\n");
    const pin = pinProject(folders.project);
    assert.deepEqual(pin.list(folders.root), []);
    assert.deepEqual(pin.list(join(harnessx(), "skills")), []);
  });
});

describe("ProjectPin.locate and entry", () => {
  test("the project's .mcp.json is read beside .harnessx; other files beside it, the project folder and its parent are not the project's", () => {
    const mcp = writeFileIn(join(folders.project, ".mcp.json"), "{}");
    writeFileIn(join(folders.project, "sub", ".mcp.json"), "{}");
    const pin = pinProject(folders.project);
    assert.equal(pin.locate(mcp), mcp);
    assert.equal(pin.entry(mcp)?.kind, "file");
    assert.equal(pin.locate(join(folders.project, "sub", ".mcp.json")), undefined);
    assert.equal(pin.entry(join(folders.project, "sub", ".mcp.json")), undefined);
    assert.equal(pin.locate(folders.project), undefined);
    assert.equal(pin.locate(folders.root), undefined);
    assert.equal(pin.locate(join(folders.root, "elsewhere.md")), undefined);
  });

  test("a project spelled through a symlinked folder is read by either spelling, from its real place", () => {
    const file = writeFileIn(join(harnessx(), "prompts", "review.md"), "Review it.\n");
    const mcp = writeFileIn(join(folders.project, ".mcp.json"), "{}");
    const spelled = join(folders.root, "spelled");
    symlinkSync(folders.project, spelled, "dir");
    const pin = pinProject(spelled);
    assert.equal(pin.dir, folders.project);
    assert.equal(pin.read(join(spelled, ".harnessx", "prompts", "review.md")).toString(), "Review it.\n");
    assert.equal(pin.read(file).toString(), "Review it.\n");
    assert.equal(pin.locate(join(spelled, ".harnessx", "prompts", "review.md")), file);
    assert.equal(pin.read(join(spelled, ".mcp.json")).toString(), "{}");
    assert.equal(pin.locate(join(spelled, ".mcp.json")), mcp);
    assert.deepEqual(
      pin.list(join(spelled, ".harnessx", "prompts")).map((entry) => entry.path),
      ["review.md"],
    );
  });

  test("with .harnessx a symlink, the project's .mcp.json is still read beside the project's .harnessx, not beside its target", () => {
    const real = join(folders.root, "real-harnessx");
    writeFileIn(join(real, "prompts", "review.md"), "Review it.\n");
    writeFileIn(join(folders.root, ".mcp.json"), "{}");
    symlinkSync(real, harnessx(), "dir");
    const mcp = writeFileIn(join(folders.project, ".mcp.json"), "{}");
    const pin = pinProject(folders.project);
    assert.equal(pin.locate(mcp), mcp);
    assert.equal(pin.locate(join(harnessx(), "prompts", "review.md")), join(real, "prompts", "review.md"));
  });
});
