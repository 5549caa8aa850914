#!/usr/bin/env node
// Type-checks the workspace with noUncheckedIndexedAccess (tsconfig.indexed.json) and holds every
// file to it except the legacy files of indexed-access-legacy.json, each allowed at most the errors
// it had when the list was made. A tsconfig `exclude` cannot do this: an excluded file that another
// file imports is still checked and its errors still reported.
// Usage: node scripts/check-indexed-access.mjs [--update]
//   --update  rewrites the legacy counts to today's, dropping files that are now clean; it never
//             adds a file or raises a count (fix the new errors instead).
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const root = new URL("..", import.meta.url).pathname;
const LEGACY = join(root, "indexed-access-legacy.json");
const update = process.argv.includes("--update");

const legacy = JSON.parse(readFileSync(LEGACY, "utf8"));
const allowed = new Map(Object.entries(legacy.files));

const configPath = join(root, "tsconfig.indexed.json");
const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"));
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });

/** Errors by workspace-relative file; an error with no file counts under "(global)". */
const found = new Map();
for (const d of ts.getPreEmitDiagnostics(program)) {
  if (d.category !== ts.DiagnosticCategory.Error) continue;
  const file = d.file ? relative(root, d.file.fileName) : "(global)";
  found.set(file, [...(found.get(file) ?? []), d]);
}

const over = [...found].filter(([file, list]) => list.length > (allowed.get(file) ?? 0));
const lower = [...allowed].filter(([file, count]) => (found.get(file)?.length ?? 0) < count);

if (update) {
  const files = Object.fromEntries(
    [...allowed].flatMap(([file, count]) => {
      const now = Math.min(count, found.get(file)?.length ?? 0);
      return now > 0 ? [[file, now]] : [];
    }),
  );
  writeFileSync(LEGACY, `${JSON.stringify({ ...legacy, files }, null, 2)}\n`);
  console.log(
    `indexed-access-legacy.json: ${Object.keys(files).length} files, ${Object.values(files).reduce((a, b) => a + b, 0)} errors`,
  );
}

if (over.length > 0) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" };
  for (const [file, list] of over) {
    const had = allowed.get(file);
    console.error(
      `\n${file}: ${list.length} error(s) with noUncheckedIndexedAccess${had ? `, ${had} allowed (a legacy file may only lose errors)` : ""}`,
    );
    console.error(ts.formatDiagnostics(list, host));
  }
  console.error(
    "Fix them: check the index (a bounds check, `?? fallback`, or `!` after a check the compiler cannot follow).",
  );
  process.exit(1);
}
if (lower.length > 0 && !update) {
  for (const [file, count] of lower)
    console.error(`${file}: ${found.get(file)?.length ?? 0} error(s) now, ${count} listed`);
  console.error("Good: run `node scripts/check-indexed-access.mjs --update` to lower indexed-access-legacy.json.");
  process.exit(1);
}
