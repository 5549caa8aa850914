// Trust is pinned to every file that can change what an agent loads from a project: each trusted
// surface folder of `.harnessx/` and each MCP configuration file. One test per surface, so a
// surface left out of the digest fails by name.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";
import { TRUSTED_FILES, TRUSTED_SURFACES } from "./project-digest.js";
import { TrustStore } from "./trust-store.js";

const folders = tempFolders("hx-trust-surfaces-");
const storeOf = () => new TrustStore(join(folders.home, "trust.json"));

/** A file of each surface, where discovery reads that surface's content from. */
const SURFACE_FILES: Record<string, string> = {
  extensions: ".harnessx/extensions/guard.ts",
  skills: ".harnessx/skills/deploy/SKILL.md",
  commands: ".harnessx/commands/ship.md",
  prompts: ".harnessx/prompts/style.md",
  knowledge: ".harnessx/knowledge/api/index.md",
  ".mcp.json": ".mcp.json",
  ".harnessx/mcp.json": ".harnessx/mcp.json",
};

describe("a change to any trusted surface untrusts the project", () => {
  test("the surfaces tested here are every surface the digest names", () => {
    assert.deepEqual(Object.keys(SURFACE_FILES).sort(), [...TRUSTED_SURFACES, ...TRUSTED_FILES].sort());
  });

  for (const [surface, file] of Object.entries(SURFACE_FILES)) {
    test(`${surface}: a file edited, removed or added after trust`, () => {
      const store = storeOf();
      const path = writeFileIn(join(folders.project, file), "as trusted\n");
      store.trust(folders.project);
      assert.equal(store.status(folders.project), "trusted");
      writeFileSync(path, "edited after trust\n");
      assert.equal(store.status(folders.project), "changed", `${file} edited`);
      rmSync(path);
      assert.equal(store.status(folders.project), "changed", `${file} removed`);

      store.trust(folders.project);
      writeFileIn(path, "added after trust\n");
      assert.equal(store.status(folders.project), "changed", `${file} added`);
    });
  }
});
