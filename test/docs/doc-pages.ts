// Runs every ```ts block of every Markdown file of the repository (the README, docs/ and its
// subfolders, the packages' READMEs) as its own program, so the documented examples stay true.
// The pages are shared among a few test files (by position), so each file stays well inside
// the per-file time limit however many pages there are.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";

const root = new URL("../..", import.meta.url).pathname;
/** How many test files share the pages. */
export const DOC_SHARDS = 4;

/** Folders never searched for pages: installed and built code, and output or hidden folders (`.harnessx`, `.run-*`). */
const SKIP = new Set(["node_modules", "dist", "test/artifacts"]);

function markdownUnder(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(root, path);
    if (entry.name.startsWith(".") || SKIP.has(entry.name) || SKIP.has(rel)) continue;
    if (entry.isDirectory()) markdownUnder(path, out);
    else if (entry.name.endsWith(".md")) out.push(rel);
  }
  return out;
}

/** The order pages are shared in: the README, then docs/ (subfolders included), then the rest, each sorted. */
function rank(page: string): number {
  return page === "README.md" ? 0 : page.startsWith("docs/") ? 1 : 2;
}

/**
 * Every Markdown file of the repository: a page added later, in any folder, is run without being
 * listed. Pages without a ```ts block are left out.
 */
export function docPages(): string[] {
  return markdownUnder(root, [])
    .filter((page) => /^```ts$/m.test(readFileSync(join(root, page), "utf8")))
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Registers the snippets of the pages at positions `shard`, `shard + DOC_SHARDS`, ... as tests. */
export function testDocPages(shard: number): void {
  if (shard === 0) {
    test(`each of the ${DOC_SHARDS} shares has its test file`, () => {
      const files = readdirSync(join(root, "test", "docs"))
        .filter((f) => /^docs-\d+\.test\.ts$/.test(f))
        .sort();
      assert.deepEqual(
        files,
        Array.from({ length: DOC_SHARDS }, (_, i) => `docs-${i + 1}.test.ts`),
      );
    });
  }
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
            writeFileSync(file, code!);
            const run = spawnSync(process.execPath, ["--import", "tsx", file], {
              cwd: dir,
              encoding: "utf8",
              timeout: 60_000,
            });
            assert.equal(run.status, 0, `example "${label}" failed:\n${run.stderr}`);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        });
      }
    });
  });
}
