// Runs every ```ts block of the docs as its own program, so the documented examples stay true.
// The pages are shared among a few test files (by position), so each file stays well inside
// the per-file time limit however many pages there are.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";

const root = new URL("../..", import.meta.url).pathname;
/** How many test files share the pages. */
export const DOC_SHARDS = 3;

/** Every page of docs/ and the README: a page added later is run without being listed. */
export function docPages(): string[] {
  return ["README.md", ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
}

/** Registers the snippets of the pages at positions `shard`, `shard + DOC_SHARDS`, ... as tests. */
export function testDocPages(shard: number): void {
  docPages().forEach((page, index) => {
    if (index % DOC_SHARDS !== shard) return;
    describe(`${page} examples run`, () => {
      const text = readFileSync(join(root, page), "utf8");
      const blocks = [...text.matchAll(/^## (.+)$|^```ts\n([\s\S]*?)^```$/gm)];
      let heading = "";
      let n = 0;
      for (const m of blocks) {
        if (m[1]) {
          heading = m[1];
          n = 0;
          continue;
        }
        const code = m[2];
        const label = `${heading} #${++n}`;
        test(label, () => {
          // Inside test/ so that "harnessx" resolves through the workspace.
          const dir = mkdtempSync(join(root, "test", "docs", ".run-"));
          try {
            const file = join(dir, "example.ts");
            writeFileSync(file, code);
            const run = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: dir, encoding: "utf8", timeout: 60_000 });
            assert.equal(run.status, 0, `example "${label}" failed:\n${run.stderr}`);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        });
      }
    });
  });
}
