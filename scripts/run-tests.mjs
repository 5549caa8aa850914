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
// `npm run demo` rebuilds (or restores from turbo's cache) every dist/ folder: run such files
// alone, before the rest, so no other test loads a package while its files are rewritten.
const rebuilding = new Set(["test/e2e/readme-commands.test.ts"]);
// One line per file and a summary (scripts/test-reporter.mjs); TEST_REPORTER=tap for the raw TAP.
const reporter = process.env.TEST_REPORTER === "tap" ? ["--test-reporter=tap"] : [`--test-reporter=${join(root, "scripts", "test-reporter.mjs")}`, "--test-reporter-destination=stdout"];
const nodeTest = (batch) =>
  spawnSync(process.execPath, ["--import", "tsx", "--test", ...reporter, "--test-concurrency=2", `--test-timeout=${process.env.TEST_TIMEOUT_MS ?? 120000}`, ...batch], { cwd: root, stdio: "inherit" }).status ?? 1;
const batches = [files.filter((f) => rebuilding.has(f)), files.filter((f) => !rebuilding.has(f))].filter((batch) => batch.length > 0);
const statuses = batches.map(nodeTest);
process.exit(statuses.find((status) => status !== 0) ?? 0);
