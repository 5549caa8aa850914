#!/usr/bin/env node
// Runs every *.test.ts of the workspace in one `node --test` (TypeScript through tsx).
// Usage: node scripts/run-tests.mjs [path-filter ...]
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const roots = ["packages", "recorder", "exporters", "cli", "examples", "test"];
const skip = new Set(["node_modules", "dist", ".turbo", "bench"]);
/** Output folders (gitignored), skipped by path: a package may well have a folder of that name. */
const skipPaths = new Set(["test/artifacts"]);

function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (skip.has(name) || skipPaths.has(relative(root, path))) continue;
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith(".test.ts")) out.push(relative(root, path));
  }
  return out;
}

const filters = process.argv.slice(2);
const files = roots.flatMap((r) => collect(join(root, r), [])).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error("no test files matched");
  process.exit(1);
}
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", `--test-timeout=${process.env.TEST_TIMEOUT_MS ?? 120000}`, ...files], { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);
