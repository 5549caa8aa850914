// What discovery loads and from where: every accepted kind of default export, a trusted file that
// cannot load failing discovery closed, user extensions beside built-ins and the project's, and
// the plan of what would load.
import assert from "node:assert/strict";
import { existsSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Agent } from "@harnessx/core";
import { ExtensionConflictError, ExtensionLoadError } from "@harnessx/core";
import { defineExtension } from "@harnessx/core/extension";
import { ScriptedProvider } from "@harnessx/core";
import { discoveryFixture } from "../test-support/discovery.js";
import { writeFileIn } from "@harnessx/core/test-support";
import { discover, planDiscovery } from "./discover.js";

/** The built package, for extension files that import the real `Extension` class. */
const core = JSON.stringify(import.meta.resolve("@harnessx/core/extension"));

const { folders, options, run, projectFile, userFile, marking } = discoveryFixture();

describe("every accepted kind of default export loads", () => {
  test(".ts files with type annotations load through jiti", async () => {
    const path = projectFile(
      "typed.ts",
      `interface Options { greeting: string }\nconst options: Options = { greeting: "hi" };\nexport default { name: "typed" as const, install(): void { void options.greeting; } } satisfies { name: string };\n`,
    );
    folders.store.trust(folders.project);
    assert.deepEqual(
      (await run()).extensions.map((e) => [e.extension.name, e.source]),
      [["typed", path]],
    );
  });

  test("instance, subclass, definition, factory (named after its file) and <name>/index.ts folder", async () => {
    projectFile(
      "instance.ts",
      `import { defineExtension } from ${core};\nexport default defineExtension({ name: "instance", install() {} });\n`,
    );
    projectFile(
      "subclass.ts",
      `import { Extension } from ${core};\nexport default class Subclass extends Extension { readonly name = "subclass"; install(): void {} }\n`,
    );
    projectFile(
      "definition.mjs",
      `export default { name: "definition", contribute: () => ({ extension: "definition", tools: [], prompts: [], policies: [], lifecycle: [] }) };\n`,
    );
    projectFile(
      "audit.js",
      `export default (hx) => { hx.registerTool(() => "done", { name: "audit_log", description: "audit_log records an audit entry." }); };\n`,
    );
    projectFile(
      "folder/index.ts",
      `export default function (hx: { registerPromptProvider(p: () => string): unknown }): void { hx.registerPromptProvider(() => "from a folder"); }\n`,
    );
    projectFile("README.md", "not an extension");
    projectFile("types.d.ts", "export type X = 1;\n");
    folders.store.trust(folders.project);
    const result = await run();
    assert.deepEqual(
      result.extensions.map((e) => e.extension.name),
      ["audit", "definition", "folder", "instance", "subclass"],
    );
    const agent = new Agent({ provider: new ScriptedProvider([{ text: "ok" }]), extensions: result.extensions });
    assert.ok(agent.tools.names().includes("audit_log"), "the factory's registration happened");
    const audit = agent.contributions().find((c) => c.extension === "audit")!;
    assert.deepEqual(
      [audit.tools.map((t) => t.name), audit.level, audit.source],
      [["audit_log"], "project", join(folders.project, ".harnessx", "extensions", "audit.js")],
    );
    assert.equal(agent.contributions().find((c) => c.extension === "folder")!.prompts.length, 1);
    await agent.close();
  });

  test("a module without a default export counts when it is shaped like a definition", async () => {
    projectFile("named.ts", `export const name = "named";\nexport function install(): void {}\n`);
    folders.store.trust(folders.project);
    assert.deepEqual(
      (await run()).extensions.map((e) => e.extension.name),
      ["named"],
    );
  });

  test("an edited file is read again, not served from a cache", async () => {
    const path = projectFile("guard.ts", `export default { name: "first", install() {} };\n`);
    folders.store.trust(folders.project);
    assert.equal((await run()).extensions[0].extension.name, "first");
    writeFileIn(path, `export default { name: "second", install() {} };\n`);
    folders.store.trust(folders.project);
    assert.equal((await run()).extensions[0].extension.name, "second");
  });
});

describe("a trusted file that cannot load fails discovery closed", () => {
  for (const [what, text, cause] of [
    ["throws at import", `throw new Error("guard is broken");\n`, /: guard is broken$/],
    ["does not parse", `export default {{;\n`, /ParseError/],
    ["exports a number", `export default 42;\n`, /its default export is a number; export default an Extension/],
    ["exports nothing usable", `export const answer = 42;\n`, /has no default export/],
  ] as const) {
    test(`${what}: ExtensionLoadError naming the file`, async () => {
      const path = projectFile("guard.ts", text);
      folders.store.trust(folders.project);
      await assert.rejects(run(), (err: unknown) => {
        assert.ok(err instanceof ExtensionLoadError, String(err));
        assert.equal(err.code, "extension_load");
        assert.equal(err.file, path);
        assert.ok(err.message.startsWith(`cannot load extension ${path}: `), err.message);
        assert.match(err.message, cause);
        assert.doesNotMatch(err.message, /\n/);
        return true;
      });
    });
  }

  test("a broken user extension fails closed too", async () => {
    const path = userFile("broken.ts", `throw new Error("nope");\n`);
    await assert.rejects(run(), (err: unknown) => err instanceof ExtensionLoadError && err.file === path);
  });
});

describe("user extensions and built-ins", () => {
  test("user extensions load without trust, before the project's, after built-ins", async () => {
    const user = userFile("mine.ts", marking("mine").text);
    const project1 = projectFile("theirs.ts", marking("theirs").text);
    const builtin = defineExtension({ name: "builtin-one", install() {} });
    const result = await run({ builtins: [builtin] });
    assert.deepEqual(
      result.extensions.map((e) => [e.extension.name, e.level, e.source]),
      [
        ["builtin-one", "builtin", undefined],
        ["mine", "user", user],
      ],
    );
    assert.deepEqual(
      result.skipped.map((s) => s.path),
      [project1],
    );
    folders.store.trust(folders.project);
    assert.deepEqual(
      (await run({ builtins: [builtin] })).extensions.map((e) => e.level),
      ["builtin", "user", "project"],
    );
  });

  test("HARNESSX_HOME is the user folder and trust file when userDir is omitted", async (t) => {
    const previous = process.env.HARNESSX_HOME;
    process.env.HARNESSX_HOME = folders.home;
    t.after(() => (previous === undefined ? delete process.env.HARNESSX_HOME : (process.env.HARNESSX_HOME = previous)));
    userFile("mine.ts", marking("mine").text);
    projectFile("theirs.ts", marking("theirs").text);
    folders.store.trust(folders.project);
    const result = await discover({ cwd: folders.project });
    assert.deepEqual(
      result.extensions.map((e) => [e.extension.name, e.level]),
      [
        ["mine", "user"],
        ["theirs", "project"],
      ],
    );
  });

  test("a project whose .harnessx is the user folder loads its files once, as user", async () => {
    const path = userFile("mine.ts", marking("mine").text);
    symlinkSync(folders.home, join(folders.project, ".harnessx"), "dir");
    const once = await run();
    assert.deepEqual(
      once.extensions.map((e) => [e.extension.name, e.level, e.source]),
      [["mine", "user", path]],
    );
    assert.deepEqual(once.skipped, []);
  });

  test("two extensions with one name reject with both sources named", async () => {
    const user = userFile("guard.ts", `export default { name: "guard", install() {} };\n`);
    const theirs = projectFile("guard.ts", `export default { name: "guard", install() {} };\n`);
    folders.store.trust(folders.project);
    await assert.rejects(
      run(),
      (err: unknown) =>
        err instanceof ExtensionConflictError &&
        err.message.includes(`${user} (user)`) &&
        err.message.includes(`${theirs} (project)`),
    );
    const builtin = defineExtension({ name: "mine", install() {} });
    rmSync(theirs);
    userFile("mine.ts", `export default { name: "mine", install() {} };\n`);
    await assert.rejects(run({ builtins: [builtin] }), /"mine": a built-in and .*mine\.ts \(user\)/);
  });

  test("planDiscovery lists what would load without importing anything", () => {
    const mine = marking("mine");
    const user = userFile("mine.ts", mine.text);
    const theirs = projectFile("theirs.ts", marking("theirs").text);
    folders.store.trust(folders.project);
    assert.deepEqual(planDiscovery(options()), {
      load: [
        { path: user, level: "user" },
        { path: theirs, level: "project" },
      ],
      skipped: [],
      resourceRoots: [
        { dir: folders.home, level: "user" },
        { dir: join(folders.project, ".harnessx"), level: "project" },
      ],
      mcpFiles: [],
    });
    assert.equal(existsSync(mine.marker), false);
  });
});
