// The noUncheckedIndexedAccess legacy list (indexed-access-legacy.json) may only shrink: every new
// file is checked with the flag by scripts/check-indexed-access.mjs (in `npm run typecheck`), and a
// file leaves the list once it is fixed. This guards the list itself, which the script trusts.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { root } from "./imports.js";

/** The list's size when it was made; lower these when files leave it, never raise them. */
const MAX_FILES = 141;
const MAX_ERRORS = 1035;

const legacy = JSON.parse(readFileSync(join(root, "indexed-access-legacy.json"), "utf8")) as {
  files: Record<string, number>;
};
const entries = Object.entries(legacy.files);

describe("the noUncheckedIndexedAccess legacy list only shrinks", () => {
  test(`it names at most ${MAX_FILES} files and ${MAX_ERRORS} errors`, () => {
    assert.ok(
      entries.length <= MAX_FILES,
      `${entries.length} files listed, at most ${MAX_FILES}: fix the new file's errors instead of listing it`,
    );
    const errors = entries.reduce((sum, [, count]) => sum + count, 0);
    assert.ok(
      errors <= MAX_ERRORS,
      `${errors} errors listed, at most ${MAX_ERRORS}: a listed file may only lose errors`,
    );
  });

  test("every listed file exists and has a positive count", () => {
    for (const [file, count] of entries) {
      assert.ok(
        existsSync(join(root, file)),
        `${file} is listed but does not exist: remove it (a moved file is checked in full)`,
      );
      assert.ok(Number.isInteger(count) && count > 0, `${file} has count ${count}: a clean file leaves the list`);
    }
  });

  test("the list is sorted, so merges conflict only where two branches touch the same file", () => {
    const files = entries.map(([file]) => file);
    assert.deepEqual(files, [...files].sort());
  });
});
