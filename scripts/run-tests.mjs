#!/usr/bin/env node
// Runs the *.test.ts files of the workspace in `node --test` (TypeScript through tsx).
// Usage: node scripts/run-tests.mjs [--e2e | --all] [path-filter ...]
//   (default) the fast suite: every test file that is not end-to-end
//   --e2e     the end-to-end suite: test/e2e/, the doc tests, *.fuzz.test.ts and *.slow.test.ts
//   --all     both
// With path filters, the files matching them, whichever suite they belong to.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
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

const args = process.argv.slice(2);
const suite = args.includes("--all") ? "all" : args.includes("--e2e") ? "e2e" : "fast";
const filters = args.filter((a) => !a.startsWith("--"));
/** End-to-end: whole programs, real servers, the demo, the docs; minutes rather than seconds. */
const isEndToEnd = (f) => /^test\/(e2e|docs)\//.test(f) || /\.(fuzz|slow)\.test\.ts$/.test(f);
const inSuite = (f) => suite === "all" || (suite === "e2e") === isEndToEnd(f);
const files = roots
  .flatMap((r) => collect(join(root, r), []))
  .filter((f) => (filters.length === 0 ? inSuite(f) : filters.some((x) => f.includes(x))));
if (files.length === 0) {
  console.error("no test files matched");
  process.exit(1);
}
// `npm run demo` rebuilds (or restores from turbo's cache) every dist/ folder: run such files
// alone, before the rest, so no other test loads a package while its files are rewritten.
const rebuilding = new Set(["test/e2e/readme-commands.test.ts"]);
// One line per file and a summary (scripts/test-reporter.mjs); TEST_REPORTER=tap for the raw TAP.
const reporter =
  process.env.TEST_REPORTER === "tap"
    ? ["--test-reporter=tap"]
    : [`--test-reporter=${join(root, "scripts", "test-reporter.mjs")}`, "--test-reporter-destination=stdout"];
// Tests import each package's test support from its sources (the `harnessx-source` export
// condition; published packages leave it out), in every process they start as well.
// The span cache (`trace query`) goes to a folder of this run, not the user's ~/.cache; so does the
// key that signs the bundles tests export, not the user's ~/.harnessx/keys.
const cacheDir = process.env.HARNESSX_CACHE_DIR ? undefined : mkdtempSync(join(tmpdir(), "hx-test-cache-"));
const keysDir = process.env.HARNESSX_KEYS_DIR ? undefined : mkdtempSync(join(tmpdir(), "hx-test-keys-"));
const env = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --conditions=harnessx-source`.trim(),
  ...(cacheDir ? { HARNESSX_CACHE_DIR: cacheDir } : {}),
  ...(keysDir ? { HARNESSX_KEYS_DIR: keysDir } : {}),
};
// The fast suite's files mostly load modules and wait (child processes, sockets, timers): three at
// once keep two cores busy (measured here: 2 at once 118 s, 3: 109 s, 4: 120 s; TEST_CONCURRENCY
// overrides). End-to-end files each load the machine and take longer: two at once, five minutes each.
const endToEnd = files.some(isEndToEnd);
const nodeTest = (batch) =>
  spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--test",
      ...reporter,
      `--test-concurrency=${endToEnd ? 2 : (process.env.TEST_CONCURRENCY ?? 3)}`,
      `--test-timeout=${process.env.TEST_TIMEOUT_MS ?? (endToEnd ? 300_000 : 120_000)}`,
      ...batch,
    ],
    { cwd: root, stdio: "inherit", env },
  ).status ?? 1;
const batches = [files.filter((f) => rebuilding.has(f)), files.filter((f) => !rebuilding.has(f))].filter(
  (batch) => batch.length > 0,
);
const statuses = batches.map(nodeTest);
if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
if (keysDir) rmSync(keysDir, { recursive: true, force: true });
process.exit(statuses.find((status) => status !== 0) ?? 0);
