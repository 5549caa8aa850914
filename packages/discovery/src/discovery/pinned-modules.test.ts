// PinnedModules on its own (no discover(), no trust file): what a trusted project's modules can
// import and how, which imports are routed through the pin, which go on to jiti, and that
// compiling them writes nothing to disk and caches nothing between two discoveries.
import assert from "node:assert/strict";
import { existsSync, readdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, test } from "node:test";
import { TrustedFileError } from "@harnessx/core";
import { pinnedModules } from "./load-extension-module.js";
import { pinProject } from "./project-digest.js";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";

const folders = tempFolders("hx-pinned-modules-");
const extensions = () => join(folders.project, ".harnessx", "extensions");
const projectFile = (name: string, text: string) => writeFileIn(join(extensions(), name), text);
/** Imports `entry` through a fresh pin of the project, as one discovery does; returns its default export. */
const importPinned = async (entry: string): Promise<Record<string, unknown>> => {
  const modules = await pinnedModules(pinProject(folders.project));
  return ((await modules.import(entry)) as { default: Record<string, unknown> }).default;
};
const refusedAs = (problem: RegExp) => (err: unknown) => err instanceof TrustedFileError && problem.test(err.message);

describe("what a pinned module imports", () => {
  test("CommonJS requires (pinned and built-in), JSON of every shape, and top-level await", async () => {
    projectFile(
      "lib/h.cjs",
      `const path = require("node:path");\nconst o = require("./o.cjs");\nmodule.exports = { o, sep: path.sep, s: "a 'use strict'; inside" };\n`,
    );
    projectFile("lib/o.cjs", `module.exports = "other";\n`);
    projectFile("lib/d.json", `{ "default": "d", "x": 1 }\n`);
    projectFile("lib/e.json", `{ "x": 1 }\n`);
    projectFile("lib/n.json", `null\n`);
    projectFile("lib/p.json", `5\n`);
    projectFile("lib/t.ts", `export const v = await Promise.resolve(7);\n`);
    const entry = projectFile(
      "guard.ts",
      `import { o, sep, s } from "./lib/h.cjs";\nimport d from "./lib/d.json";\nimport e from "./lib/e.json";\nimport { v } from "./lib/t.ts";\n` +
        `export default { o, sep, s, d, e, eKeys: Object.keys(e), n: await import("./lib/n.json"), p: await import("./lib/p.json"), v };\n`,
    );
    assert.deepEqual(await importPinned(entry), {
      o: "other",
      sep: "/",
      s: "a 'use strict'; inside",
      d: "d",
      e: { x: 1 },
      eKeys: ["x"],
      n: null,
      p: 5,
      v: 7,
    });
  });

  test("a default export of null stays null (no default interop)", async () => {
    const entry = projectFile("guard.ts", `export default null;\n`);
    const modules = await pinnedModules(pinProject(folders.project));
    const module = (await modules.import(entry)) as { default: unknown };
    assert.equal(module.default, null);
  });

  test("a package the project installed is imported from where it resolves", async () => {
    writeFileIn(
      join(folders.project, "node_modules", "fake-pkg", "package.json"),
      `{ "name": "fake-pkg", "type": "module" }\n`,
    );
    writeFileIn(join(folders.project, "node_modules", "fake-pkg", "index.js"), `export const fromPkg = "pkg";\n`);
    writeFileIn(join(folders.project, "node_modules", "fake-pkg", "sub.", "x.js"), `export const fromSub = "sub";\n`);
    const entry = projectFile(
      "guard.ts",
      `import { fromPkg } from "fake-pkg";\nimport { fromSub } from "fake-pkg/sub./x.js";\nexport default { fromPkg, fromSub };\n`,
    );
    assert.deepEqual(await importPinned(entry), { fromPkg: "pkg", fromSub: "sub" });
  });
});

describe("imports routed through the pin are refused when changed", () => {
  test("a file a CommonJS helper requires, edited after the pin", async () => {
    projectFile("lib/h.cjs", `module.exports = require("./o.cjs");\n`);
    const other = projectFile("lib/o.cjs", `module.exports = "other";\n`);
    const entry = projectFile("guard.ts", `import o from "./lib/h.cjs";\nexport default { o };\n`);
    const modules = await pinnedModules(pinProject(folders.project));
    writeFileSync(other, `module.exports = "evil";\n`);
    await assert.rejects(modules.import(entry), refusedAs(/lib\/o\.cjs was edited/));
  });

  test("with .harnessx a symlink, a helper edited after the pin", async () => {
    const real = join(folders.root, "real-harnessx");
    const helper = writeFileIn(join(real, "extensions", "lib", "h.ts"), `export const v = "deny";\n`);
    writeFileIn(join(real, "extensions", "guard.ts"), `import { v } from "./lib/h.ts";\nexport default { v };\n`);
    symlinkSync(real, join(folders.project, ".harnessx"), "dir");
    const modules = await pinnedModules(pinProject(folders.project));
    writeFileSync(helper, `export const v = "allow";\n`);
    await assert.rejects(modules.import(join(extensions(), "guard.ts")), refusedAs(/lib\/h\.ts was edited/));
  });

  test("with .harnessx a symlink, a helper behind a symlinked folder leading out of .harnessx", async () => {
    const real = join(folders.root, "real-harnessx");
    const elsewhere = join(folders.root, "elsewhere");
    writeFileIn(join(elsewhere, "policy.ts"), `export const v = "allow";\n`);
    writeFileIn(join(real, "extensions", "guard.ts"), `import { v } from "./lib/policy.ts";\nexport default { v };\n`);
    symlinkSync(elsewhere, join(real, "extensions", "lib"), "dir");
    symlinkSync(real, join(folders.project, ".harnessx"), "dir");
    const modules = await pinnedModules(pinProject(folders.project));
    await assert.rejects(
      modules.import(join(extensions(), "guard.ts")),
      refusedAs(
        /lib\/policy\.ts is imported by .*guard\.ts but resolves to .*elsewhere\/policy\.ts, outside \.harnessx, through a symlink/,
      ),
    );
  });

  test("a file: URL into a folder swapped for a symlink leading out of .harnessx (jiti resolves it without following the link)", async () => {
    const policy = projectFile("lib/policy.ts", `export const v = "deny";\n`);
    const entry = projectFile(
      "guard.ts",
      `import { v } from ${JSON.stringify(pathToFileURL(policy).href)};\nexport default { v };\n`,
    );
    const modules = await pinnedModules(pinProject(folders.project));
    const elsewhere = join(folders.root, "elsewhere");
    writeFileIn(join(elsewhere, "policy.ts"), `export const v = "allow";\n`);
    renameSync(join(extensions(), "lib"), join(folders.root, "old-lib"));
    symlinkSync(elsewhere, join(extensions(), "lib"), "dir");
    await assert.rejects(modules.import(entry), refusedAs(/lib\/policy\.ts is now reached through a symlinked folder/));
  });
});

describe("nothing is kept between discoveries", () => {
  test("a file outside .harnessx edited between two discoveries is read again", async () => {
    const shared = writeFileIn(join(folders.project, "src", "shared.ts"), `export const v = "first";\n`);
    const entry = projectFile("guard.ts", `import { v } from "../../src/shared.ts";\nexport default { v };\n`);
    assert.deepEqual(await importPinned(entry), { v: "first" });
    writeFileSync(shared, `export const v = "second";\n`);
    assert.deepEqual(await importPinned(entry), { v: "second" });
  });

  test("compiling a project's TypeScript writes no cache to disk", async () => {
    // jiti's file cache would go to <tmpdir>/jiti, named after the file's folder and stem.
    const stem = basename(folders.root);
    const entry = projectFile(`${stem}.ts`, `const v: string = "typed";\nexport default { v };\n`);
    writeFileIn(join(folders.project, "src", `${stem}-shared.ts`), `export const w: number = 1;\n`);
    projectFile(`${stem}-b.ts`, `import { w } from "../../src/${stem}-shared.ts";\nexport default { w };\n`);
    assert.deepEqual(await importPinned(entry), { v: "typed" });
    assert.deepEqual(await importPinned(join(extensions(), `${stem}-b.ts`)), { w: 1 });
    const cache = join(tmpdir(), "jiti");
    const cached = existsSync(cache) ? readdirSync(cache).filter((entry) => entry.includes(stem)) : [];
    assert.deepEqual(cached, []);
  });
});
