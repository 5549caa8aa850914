#!/usr/bin/env node
// Mutation testing of one module (folder) with StrykerJS: how many planted bugs its tests catch.
// Usage: npm run mutate -- <folder> [--tests <glob>]... [--one-process] [--timeout-ms <n>] [--dry-run] [--incremental] [--concurrency <n>]
//   <folder>          the module to mutate, e.g. packages/core/src/permissions (or one .ts file of it)
//   --tests <glob>    more test files to run besides the folder's own (repeatable)
//   --one-process     run all the test files in one node process per mutant (faster when most
//                     test files reach most of the code: the process start is paid once, not per file)
//   --timeout-ms <n>  a mutant whose tests run this much longer than normal counts as hanging (default 10000)
//   --dry-run         run the tests once under instrumentation and count the mutants, no mutant run
//   --incremental     reuse the results of the last run of this module for unchanged code and tests
//   --concurrency <n> test processes at once (default 2)
// The report is reports/mutation/<module>.html (and .json); the score is printed at the end.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { Stryker } from "@stryker-mutator/core";

const root = new URL("..", import.meta.url).pathname;
const usage =
  "usage: npm run mutate -- <folder> [--tests <glob>]... [--one-process] [--timeout-ms <n>] [--dry-run] [--incremental] [--concurrency <n>]";

function parse(args) {
  const options = {
    folder: undefined,
    tests: [],
    oneProcess: false,
    timeoutMs: 10_000,
    dryRun: false,
    incremental: false,
    concurrency: 2,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      if (i + 1 >= args.length) fail(`${arg} needs a value\n${usage}`);
      return args[++i];
    };
    if (arg === "--tests") options.tests.push(value());
    else if (arg === "--one-process") options.oneProcess = true;
    else if (arg === "--timeout-ms") options.timeoutMs = Number(value());
    else if (arg === "--dry-run") options.dryRun = true;
    else if (arg === "--incremental") options.incremental = true;
    else if (arg === "--concurrency") options.concurrency = Number(value());
    else if (arg.startsWith("--")) fail(`unknown option ${arg}\n${usage}`);
    else if (options.folder === undefined) options.folder = arg;
    else fail(`one folder at a time (got ${options.folder} and ${arg})\n${usage}`);
  }
  if (options.folder === undefined) fail(usage);
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 100)
    fail(`--timeout-ms must be a whole number of 100 or more\n${usage}`);
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1)
    fail(`--concurrency must be a whole number of 1 or more\n${usage}`);
  return options;
}

function fail(message) {
  console.error(message);
  process.exit(2);
}

const options = parse(process.argv.slice(2));
const target = relative(root, resolve(process.cwd(), options.folder)).replaceAll("\\", "/");
if (target.startsWith("..") || !existsSync(join(root, target))) fail(`${options.folder} is not in this repository`);
// One file of a module (a large module in parts): its folder's tests still judge it.
const single = statSync(join(root, target)).isFile();
if (single && (!target.endsWith(".ts") || /\.(test|typetest|d)\.ts$/.test(target)))
  fail(`${options.folder} is not a TypeScript source file or a folder`);
const folder = single ? dirname(target) : target;
/** The module's name in report file names: packages/core/src/redact -> core-redact (a file adds its name). */
const slug = target
  .replace(/^packages\//, "")
  .replace(/\/src\//, "-")
  .replace(/\.ts$/, "")
  .replaceAll("/", "-");

/** The module's production code: tests, test kits, test support and type tests are not its behaviour. */
function sources(dir) {
  const out = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "test-support" && entry.name !== "node_modules" && entry.name !== "dist")
        out.push(...sources(path));
    } else if (entry.name.endsWith(".ts") && !/\.(test|typetest|d)\.ts$|test-kit/.test(entry.name)) out.push(path);
  }
  return out;
}
const mutate = single ? [target] : sources(folder);
if (mutate.length === 0) fail(`${folder} holds no TypeScript source to mutate`);
// The module's own tests, the fast ones: fuzz and slow files take minutes each and would be run for every mutant they cover.
const testGlobs = [`${folder}/**/!(*.fuzz|*.slow).test.ts`, ...options.tests];
const testFiles = options.oneProcess ? [oneProcessSuite()] : testGlobs;

/** The folder's fast test files (the first glob above, walked by hand: Node 20 has no fs.glob). */
function folderTests(dir) {
  const out = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "dist") out.push(...folderTests(path));
    } else if (entry.name.endsWith(".test.ts") && !/\.(fuzz|slow)\.test\.ts$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/**
 * One test file that imports all the others, so a mutant pays one process start instead of one per
 * file. A file's own test comes first: it is the likeliest to fail, and the run stops at the first failure.
 */
function oneProcessSuite() {
  for (const extra of options.tests) {
    if (/[*?[{]/.test(extra) || !existsSync(join(root, extra)))
      fail(`--one-process takes test files, not globs: ${extra}`);
  }
  const own = single ? target.replace(/\.ts$/, ".test.ts") : undefined;
  const files = [
    ...new Set([...(own && existsSync(join(root, own)) ? [own] : []), ...folderTests(folder), ...options.tests]),
  ];
  const suite = `.mutate-suites/${slug}.test.ts`;
  mkdirSync(join(root, ".mutate-suites"), { recursive: true });
  writeFileSync(join(root, suite), files.map((file) => `import "../${file}";\n`).join(""));
  return suite;
}

// Each test file runs in a process of its own, as in `node scripts/run-tests.mjs`: TypeScript
// through tsx, packages' test support from their sources, TAP on stdout for the runner to read.
const nodeArgs = [
  "--test-reporter=tap",
  "--conditions=harnessx-source",
  "--import",
  "tsx",
  "-r",
  "{{hookFile}}",
  "{{testFile}}",
];
const cacheDir = process.env.HARNESSX_CACHE_DIR ? undefined : mkdtempSync(join(tmpdir(), "hx-mutate-cache-"));
if (cacheDir) process.env.HARNESSX_CACHE_DIR = cacheDir;

const reports = `reports/mutation/${slug}`;
const config = {
  mutate,
  testRunner: "tap",
  tap: { testFiles, nodeArgs, forceBail: true },
  coverageAnalysis: "perTest",
  concurrency: options.concurrency,
  // A mutant that makes a test hang (a loop that never ends) is killed after this; tests here take seconds.
  timeoutMS: options.timeoutMs,
  timeoutFactor: 2,
  dryRunOnly: options.dryRun,
  incremental: options.incremental,
  incrementalFile: `${reports}.incremental.json`,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `${reports}.html` },
  jsonReporter: { fileName: `${reports}.json` },
  clearTextReporter: {
    allowColor: process.stdout.isTTY === true,
    logTests: false,
    reportScoreTable: true,
    reportMutants: true,
  },
  // The sandbox is a copy of the repository: build outputs and recordings need not be copied.
  ignorePatterns: [".turbo", ".harnessx", "test/artifacts", "test/docs/.run-*", "docs/api", "/reports"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  thresholds: { high: 80, low: 60, break: null },
  allowEmpty: false,
};

const started = performance.now();
try {
  process.chdir(root);
  console.error(`mutating ${target} (tests: ${testGlobs.join(", ")}${options.oneProcess ? ", in one process" : ""})`);
  const results = await new Stryker(config).runMutationTest();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (options.dryRun) {
    console.error(`dry run of ${target}: the tests pass under instrumentation (${seconds} s)`);
  } else {
    const count = (status) => results.filter((r) => r.status === status).length;
    const killed = count("Killed") + count("Timeout");
    const valid = killed + count("Survived") + count("NoCoverage");
    const score = valid === 0 ? 100 : (100 * killed) / valid;
    console.error(
      `${target}: mutation score ${score.toFixed(1)}% (${killed} of ${valid} mutants killed, ${count("Survived")} survived, ${count("NoCoverage")} not covered) in ${seconds} s; report ${reports}.html`,
    );
  }
} catch (error) {
  // Stryker has logged the cause (a test failing without mutants, a runner that cannot start).
  console.error(`mutate ${target}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  if (options.oneProcess) rmSync(join(root, testFiles[0]), { force: true });
}
