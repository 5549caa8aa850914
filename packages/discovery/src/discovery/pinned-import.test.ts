// A trusted project's extension code runs only as trust hashed it: a file swapped between the
// trust check and the import (made deterministic here by an earlier extension that swaps it while
// it is imported), a helper reached by a relative import, or code behind a symlinked sub-folder
// is refused with an ExtensionLoadError, and the swapped-in code never runs.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, test } from "node:test";
import { ExtensionLoadError } from "@harnessx/core";
import { discover } from "./discover.js";
import { TrustStore } from "./trust-store.js";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";

const folders = tempFolders("hx-pinned-import-");
let store: TrustStore;
beforeEach(() => {
  store = new TrustStore(join(folders.home, "trust.json"));
});

const extensions = () => join(folders.project, ".harnessx", "extensions");
const projectFile = (name: string, text: string) => writeFileIn(join(extensions(), name), text);
const run = () => discover({ cwd: folders.project, userDir: folders.home, trustStore: store });
const marker = () => join(folders.root, "evil.ran");
/** Module text that proves it ran by leaving the marker file. */
const evil = (exports = `export default { name: "guard", install() {} };`) =>
  `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker())}, "yes");\n${exports}\n`;
/** An extension sorted first whose import swaps files: the race between trust check and import, made deterministic. */
const swapper = (code: string) =>
  projectFile(
    "a-swap.mjs",
    `import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";\n${code}\nexport default { name: "swap", install() {} };\n`,
  );

async function refused(file: string, problem: RegExp): Promise<void> {
  await assert.rejects(run(), (err: unknown) => {
    assert.ok(err instanceof ExtensionLoadError, String(err));
    assert.equal(err.file, file);
    assert.match(err.message, problem);
    assert.match(err.message, /TrustedFileError: .* it is not used: /);
    return true;
  });
  assert.equal(existsSync(marker()), false, "code trust never saw ran");
}

describe("a file swapped after the trust check is not imported", () => {
  test("an extension file edited between the check and its import", async () => {
    const guard = projectFile("b-guard.mjs", `export default { name: "guard", install() {} };\n`);
    swapper(`writeFileSync(${JSON.stringify(guard)}, ${JSON.stringify(evil())});`);
    store.trust(folders.project);
    await refused(guard, /b-guard\.mjs was edited/);
  });

  test("an extension file replaced by a symlink to code elsewhere", async () => {
    const guard = projectFile("b-guard.ts", `export default { name: "guard", install() {} };\n`);
    const elsewhere = writeFileIn(join(folders.root, "elsewhere.ts"), evil());
    swapper(`rmSync(${JSON.stringify(guard)}); symlinkSync(${JSON.stringify(elsewhere)}, ${JSON.stringify(guard)});`);
    store.trust(folders.project);
    await refused(guard, /b-guard\.ts was replaced by a symlink/);
  });

  for (const helper of ["policy.ts", "policy.mjs", "policy.js"]) {
    test(`a helper (${helper}) a trusted extension imports, edited before that import`, async () => {
      const path = projectFile(join("lib", helper), `export const verdict = "deny";\n`);
      const guard = projectFile(
        "b-guard.ts",
        `import { verdict } from "./lib/${helper}";\nexport default { name: "guard", install() { void verdict; } };\n`,
      );
      swapper(`writeFileSync(${JSON.stringify(path)}, ${JSON.stringify(evil(`export const verdict = "allow";`))});`);
      store.trust(folders.project);
      await refused(guard, new RegExp(`lib/${helper.replace(".", "\\.")} was edited`));
    });
  }

  test("a JSON file a trusted extension imports, edited before that import", async () => {
    const rules = projectFile("rules.json", `{ "name": "guard" }\n`);
    const guard = projectFile(
      "b-guard.ts",
      `import rules from "./rules.json";\nexport default { name: rules.name, install() {} };\n`,
    );
    swapper(`writeFileSync(${JSON.stringify(rules)}, '{ "name": "swap" }');`);
    store.trust(folders.project);
    await refused(guard, /rules\.json was edited/);
  });

  test("a helper folder replaced by a symlink to code elsewhere while extensions are imported", async () => {
    projectFile(join("lib", "policy.ts"), `export const verdict = "deny";\n`);
    const guard = projectFile(
      "b-guard.ts",
      `import { verdict } from "./lib/policy.ts";\nexport default { name: "guard", install() { void verdict; } };\n`,
    );
    const elsewhere = join(folders.root, "elsewhere");
    writeFileIn(join(elsewhere, "policy.ts"), evil(`export const verdict = "allow";`));
    const lib = join(extensions(), "lib");
    swapper(
      `rmSync(${JSON.stringify(lib)}, { recursive: true }); symlinkSync(${JSON.stringify(elsewhere)}, ${JSON.stringify(lib)});`,
    );
    store.trust(folders.project);
    await refused(
      guard,
      /lib\/policy\.ts is imported by .*b-guard\.ts but resolves to .*elsewhere\/policy\.ts, outside \.harnessx, through a symlink/,
    );
  });
});

describe("a symlinked sub-folder of extensions/ is never read through", () => {
  test("code behind it is refused even when it changed after trust, which the digest cannot see", async () => {
    const elsewhere = join(folders.root, "elsewhere");
    const policy = writeFileIn(join(elsewhere, "policy.ts"), `export const verdict = "deny";\n`);
    const guard = projectFile(
      "guard.ts",
      `import { verdict } from "./lib/policy.ts";\nexport default { name: "guard", install() { void verdict; } };\n`,
    );
    symlinkSync(elsewhere, join(extensions(), "lib"), "dir");
    store.trust(folders.project);
    writeFileIn(policy, evil(`export const verdict = "allow";`));
    assert.equal(store.status(folders.project), "trusted", "the digest records the link, not what it points to");
    await refused(guard, /through a symlink/);
  });
});

describe("a trusted file reached back from the project's source tree", () => {
  test("is checked against the pin when jiti compiles it", async () => {
    const policy = projectFile(join("lib", "policy.ts"), `export const verdict = "deny";\n`);
    writeFileIn(
      join(folders.project, "src", "bridge.ts"),
      `export { verdict } from "../.harnessx/extensions/lib/policy.ts";\n`,
    );
    const guard = projectFile(
      "b-guard.ts",
      `import { verdict } from "../../src/bridge.ts";\nexport default { name: "guard", install() { void verdict; } };\n`,
    );
    swapper(`writeFileSync(${JSON.stringify(policy)}, ${JSON.stringify(evil(`export const verdict = "allow";`))});`);
    store.trust(folders.project);
    await refused(guard, /lib\/policy\.ts was edited/);
  });
});

describe("an extensions folder that is itself a symlink", () => {
  test("is one entry, and no extension is imported through it", async () => {
    const outside = join(folders.root, "shared-extensions");
    const guard = writeFileIn(join(outside, "guard.ts"), `export default { name: "guard", install() {} };\n`);
    mkdirSync(join(folders.project, ".harnessx"));
    symlinkSync(outside, extensions(), "dir");
    store.trust(folders.project);
    writeFileIn(guard, evil());
    assert.equal(store.status(folders.project), "trusted", "what the link points to is not digested");
    await refused(join(extensions(), "guard.ts"), /guard\.ts is reached through the symlink \.harnessx\/extensions/);
  });
});

describe("unchanged helpers load from the pinned bytes", () => {
  test("TypeScript, .mjs, .js and JSON helpers in sub-folders, an import cycle, and a helper two extensions share", async () => {
    projectFile(
      "lib/a.ts",
      `import { b } from "./b.ts";\nexport const a = "a";\nexport const both = () => a + b;\nexport const strict = (function (this: unknown) { return this === undefined; })();\n`,
    );
    projectFile(
      "lib/b.ts",
      `import * as cycle from "./a.ts";\nexport const b = "b";\nexport const seen = typeof cycle;\n`,
    );
    projectFile("lib/c.mjs", `export const c = "c";\n`);
    projectFile("lib/d.js", `export const d = "d";\n`);
    projectFile("lib/e.json", `{ "e": "e" }\n`);
    projectFile("lib/count.ts", `export const counter = { loads: 0 };\ncounter.loads++;\n`);
    projectFile(
      "one.ts",
      `import { both, strict } from "./lib/a.ts";\nimport { c } from "./lib/c.mjs";\nimport { d } from "./lib/d.js";\nimport data from "./lib/e.json";\nimport { counter } from "./lib/count.ts";\nexport default { name: both() + c + d + data.e, install() {}, counter, strict };\n`,
    );
    projectFile(
      "two.ts",
      `import { counter } from "./lib/count.ts";\nexport default { name: "two", install() {}, loads: counter.loads };\n`,
    );
    mkdirSync(join(folders.project, ".harnessx", "runs"), { recursive: true });
    store.trust(folders.project);
    const result = await run();
    assert.deepEqual(
      result.extensions.map((e) => e.extension.name),
      ["abcde", "two"],
    );
    assert.equal(
      (result.extensions[1]!.extension as unknown as { loads: number }).loads,
      1,
      "a shared helper is evaluated once",
    );
    assert.equal(
      (result.extensions[0]!.extension as unknown as { strict: boolean }).strict,
      true,
      "a compiled module keeps its strict mode",
    );
  });

  test("a file added after the trust check is not imported, even when nothing else changed", async () => {
    const guard = projectFile(
      "b-guard.ts",
      `import "./lib/extra.ts";\nexport default { name: "guard", install() {} };\n`,
    );
    const extra = join(extensions(), "lib", "extra.ts");
    swapper(
      `mkdirSync(${JSON.stringify(join(extensions(), "lib"))}, { recursive: true }); writeFileSync(${JSON.stringify(extra)}, ${JSON.stringify(evil("export {};"))});`,
    );
    store.trust(folders.project);
    await refused(guard, /lib\/extra\.ts was added/);
    rmSync(extra);
  });
});
