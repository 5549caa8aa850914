// The docs' AI SDK example (docs/recorder.md, blocks fenced `ts ai-sdk`) run as a program from
// inside the recorder, where `ai` 7 resolves: test/, where the other doc examples run, pins an
// older `ai` for its bench.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const recorderRoot = new URL("../../..", import.meta.url).pathname;
const page = join(recorderRoot, "..", "docs", "recorder.md");
const blocks = [...readFileSync(page, "utf8").matchAll(/^```ts ai-sdk\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

test("docs/recorder.md has its AI SDK example", () => {
  assert.ok(blocks.length >= 1);
});

blocks.forEach((code, index) => {
  test(`docs/recorder.md AI SDK example #${index + 1} runs`, () => {
    const dir = mkdtempSync(join(recorderRoot, ".run-docs-"));
    try {
      const file = join(dir, "example.ts");
      writeFileSync(file, code);
      const run = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: dir, encoding: "utf8", timeout: 60_000 });
      assert.equal(run.status, 0, `the example failed:\n${run.stderr}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
