import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { writeFileAtomically } from "./index.js";
import { tempDir } from "../../../test/support/system.js";

const { dir, cleanup } = tempDir();
after(cleanup);

describe("whole-or-nothing file writes", () => {
  test("the file appears whole and no temporary file is left", async () => {
    const path = join(dir, "report.html");
    await writeFileAtomically(path, "<html>one</html>");
    await writeFileAtomically(path, "<html>two</html>");
    assert.equal(readFileSync(path, "utf8"), "<html>two</html>");
    assert.deepEqual(readdirSync(dir), ["report.html"]);
  });

  test("a write that fails keeps the old file and leaves no temporary file", async () => {
    const folder = join(dir, "failing");
    mkdirSync(folder);
    const path = join(folder, "out.json");
    writeFileSync(path, "old");
    // Renaming a file over a non-empty directory fails after the data was written.
    const blocked = join(folder, "blocked");
    mkdirSync(join(blocked, "inside"), { recursive: true });
    await assert.rejects(writeFileAtomically(blocked, "new"));
    assert.equal(readFileSync(path, "utf8"), "old");
    assert.deepEqual(readdirSync(folder).sort(), ["blocked", "out.json"]);
  });
});
