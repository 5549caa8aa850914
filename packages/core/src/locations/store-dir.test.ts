// One store: the default every built-in writes to, found by readers as git finds its repository.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { defineExtension } from "../extensions/extension.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tempFolders } from "../test-support/folders.js";
import { defaultStoreDir, findStoreDir, noteStoreDir } from "./store-dir.js";

const folders = tempFolders("hx-store-dir-");

describe("the store", () => {
  test("the default is HARNESSX_DIR, else .harnessx", () => {
    assert.equal(defaultStoreDir({}), ".harnessx");
    assert.equal(defaultStoreDir({ HARNESSX_DIR: "/data/hx" }), "/data/hx");
  });

  test("readers find the nearest .harnessx with recordings walking up; a folder without runs is passed by", () => {
    const deep = join(folders.project, "src", "deep");
    mkdirSync(deep, { recursive: true });
    mkdirSync(join(folders.project, ".harnessx", "runs"), { recursive: true });
    mkdirSync(join(folders.project, "src", ".harnessx", "skills"), { recursive: true });
    assert.equal(findStoreDir(deep, {}), join(folders.project, ".harnessx"));
    assert.equal(findStoreDir(deep, { HARNESSX_DIR: "../elsewhere" }), join(folders.project, "src", "elsewhere"));
    assert.equal(
      findStoreDir(folders.home, {}).endsWith(join("home", ".harnessx")),
      true,
      "nothing found: .harnessx here",
    );
  });

  test("two extensions of one agent naming different stores get a warning", async () => {
    const warnings: string[] = [];
    const listen = (w: Error & { code?: string }) =>
      void (w.code === "HARNESSX_STORE_MISMATCH" && warnings.push(w.message));
    process.on("warning", listen);
    try {
      const writer = (name: string, dir: string) => defineExtension(name, (ctx) => noteStoreDir(ctx, name, dir));
      new Agent({
        provider: new ScriptedProvider([]),
        extensions: [writer("recorder", ".harnessx"), writer("spill", "./.harnessx")],
      });
      new Agent({
        provider: new ScriptedProvider([]),
        extensions: [writer("recorder", ".harnessx-mine"), writer("spill", ".harnessx")],
      });
      await new Promise((r) => setImmediate(r));
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0]!,
        /^spill writes to .*\.harnessx but recorder writes to .*\.harnessx-mine: incident bundles will miss/,
      );
    } finally {
      process.off("warning", listen);
    }
  });
});
