// One extension file imported directly (a user's, no pin): what each unusable default export is
// called in the error, how an import's or a constructor's failure is put on one line, and that
// the user loader reads an edited file again.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, test } from "node:test";
import { ExtensionLoadError } from "@harnessx/core";
import { loadExtensionModule } from "./load-extension-module.js";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";

const folders = tempFolders("hx-load-module-");
const file = (name: string, text: string) => writeFileIn(join(folders.home, "extensions", name), text);
const FIX =
  "export default an Extension instance or subclass, a definition { name, install or contribute }, or a factory function (hx) => void";

/** Asserts loading `path` fails with exactly this reason (and returns the error). */
async function fails(path: string, reason: string): Promise<ExtensionLoadError> {
  let caught: unknown;
  await assert.rejects(loadExtensionModule(path, "user"), (err: unknown) => {
    caught = err;
    assert.ok(err instanceof ExtensionLoadError, String(err));
    assert.equal(err.file, path);
    assert.equal(err.message, `cannot load extension ${path}: ${reason}`);
    return true;
  });
  return caught as ExtensionLoadError;
}

describe("a default export that is no extension is named in the error", () => {
  for (const [what, exported, got] of [
    ["null", "null", "null"],
    ["undefined", "undefined", "undefined"],
    ["an array", "[{ name: 'a', install() {} }]", "an array"],
    ["a number", "42", "a number"],
    ["a string", "'guard'", "a string"],
    [
      "a class without a name",
      "class { install() {} }",
      "a class whose instances have no name and install() or contribute()",
    ],
    ["an object without a name", "{ install() {} }", "an object without a name and install() or contribute()"],
    [
      "an object whose name is not a string",
      "{ name: 42, install() {} }",
      "an object without a name and install() or contribute()",
    ],
    [
      "an object with a name only",
      "{ name: 'guard', install: 1, contribute: 'x' }",
      "an object without a name and install() or contribute()",
    ],
  ]) {
    test(what, async () => {
      await fails(file("guard.mjs", `export default ${exported};\n`), `its default export is ${got}; ${FIX}`);
    });
  }

  test("a CommonJS file's module.exports is its default export", async () => {
    await fails(file("null.js", "module.exports = null;\n"), `its default export is null; ${FIX}`);
    await fails(file("text.js", 'module.exports = "guard";\n'), `its default export is a string; ${FIX}`);
    const path = file("guard.js", 'module.exports = { name: "guard", install() {} };\n');
    assert.equal((await loadExtensionModule(path, "user")).extension.name, "guard");
  });

  test("a module with no default export that is not shaped like a definition", async () => {
    await fails(
      file("guard.mjs", `export const name = "guard";\n`),
      `it has no default export and its exports are not an extension; ${FIX}`,
    );
  });
});

describe("an extension that is accepted", () => {
  test("takes its level and source from where it was found, and a contribute() alone is enough", async () => {
    const path = file(
      "guard.mjs",
      `export default { name: "guard", level: "builtin", source: "elsewhere", contribute() { return {}; } };\n`,
    );
    const loaded = await loadExtensionModule(path, "user");
    assert.equal(loaded.extension.name, "guard");
    assert.equal(loaded.level, "user");
    assert.equal(loaded.source, path);
  });

  test("a user's file edited since its last import is imported again", async () => {
    const path = file("guard.ts", `export default { name: "first", install() {} };\n`);
    assert.equal((await loadExtensionModule(path, "user")).extension.name, "first");
    file("guard.ts", `export default { name: "second", install() {} };\n`);
    assert.equal((await loadExtensionModule(path, "user")).extension.name, "second");
  });

  test("compiling a user's TypeScript file writes no cache to disk", async () => {
    // jiti's file cache would go to <tmpdir>/jiti, named after the file's folder and stem.
    const stem = basename(folders.root);
    const path = file(`${stem}.ts`, `const name: string = "typed";\nexport default { name, install(): void {} };\n`);
    assert.equal((await loadExtensionModule(path, "user")).extension.name, "typed");
    const cache = join(tmpdir(), "jiti");
    const cached = existsSync(cache) ? readdirSync(cache).filter((entry) => entry.includes(stem)) : [];
    assert.deepEqual(cached, []);
  });
});

describe("a failure is described on one line", () => {
  test("an import that throws a plain Error gives its message alone, whitespace folded, the error kept as cause", async () => {
    const path = file("guard.mjs", `throw new Error("guard  is\\n   broken\\t ");\n`);
    const err = await fails(path, "guard is broken");
    assert.ok(err.cause instanceof Error);
    assert.equal(err.cause.message, "guard  is\n   broken\t ");
  });

  test("another kind of error is named before its message, unless the message starts with the name", async () => {
    await fails(file("a.mjs", `throw new TypeError("bad thing");\n`), "TypeError: bad thing");
    await fails(file("b.mjs", `throw new RangeError("RangeError in the guard");\n`), "RangeError in the guard");
    await fails(file("c.mjs", `throw new TypeError("the TypeError guard");\n`), "TypeError: the TypeError guard");
  });

  test("a class whose constructor throws: creating its extension failed, with the cause", async () => {
    const path = file(
      "guard.mjs",
      `export default class Guard { constructor() { throw new RangeError("no\\n  guard"); } }\n`,
    );
    const err = await fails(path, "creating its extension failed: RangeError: no guard");
    assert.ok(err.cause instanceof RangeError);
  });
});
