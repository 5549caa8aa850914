// Core's entries by audience (docs/architecture.md, "Core's entries"): the root for application
// code, `/extension` for extension authors, `/tracing` for span sinks. Each name has one home, and
// an extension or a span sink that imports its entry does not load the engine.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { root } from "./imports.js";

const manifest = JSON.parse(readFileSync(join(root, "packages/core/package.json"), "utf8")) as {
  exports: Record<string, unknown>;
};
/** `.` -> `@harnessx/core`, `./tracing` -> `@harnessx/core/tracing`. */
const ENTRIES = Object.keys(manifest.exports)
  .filter((key) => key !== "./test-support")
  .map((key) => `@harnessx/core${key.slice(1)}`);
const SOURCES: Record<string, string> = {
  "@harnessx/core": "packages/core/src/index.ts",
  "@harnessx/core/extension": "packages/core/src/extension.ts",
  "@harnessx/core/tracing": "packages/core/src/tracing.ts",
};

function exportedNames(): Map<string, string[]> {
  const files = ENTRIES.map((entry) => join(root, SOURCES[entry] ?? assert.fail(`${entry} has no source listed here`)));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const names = new Map<string, string[]>();
  ENTRIES.forEach((entry, i) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(files[i]!)!)!;
    names.set(
      entry,
      checker.getExportsOfModule(module).map((s) => s.name),
    );
  });
  return names;
}

const scratch = mkdtempSync(join(tmpdir(), "hx-core-entries-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The modules (core's dist folders and packages) that importing `entry` loads, through a load hook. */
function loadedBy(entry: string): { folders: Set<string>; packages: Set<string> } {
  const out = join(scratch, `${entry.replaceAll("/", "_")}.txt`);
  writeFileSync(
    join(scratch, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";
let out;
export async function initialize(data) { out = data.out; }
export async function load(url, context, next) { appendFileSync(out, url + "\\n"); return next(url, context); }`,
  );
  const script = `import { register } from "node:module";
register(${JSON.stringify(pathToFileURL(join(scratch, "hooks.mjs")).href)}, { data: { out: ${JSON.stringify(out)} } });
await import(${JSON.stringify(createRequire(join(root, "test/package.json")).resolve(entry))});`;
  // As a published install loads it: without the test runner's source condition.
  execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  const folders = new Set<string>();
  const packages = new Set<string>();
  for (const url of readFileSync(out, "utf8").trim().split("\n")) {
    if (!url.startsWith("file:")) continue;
    const path = fileURLToPath(url);
    const dist = /\/packages\/core\/dist\/(?:([^/]+)\/)?/.exec(path);
    const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (pkg && !pkg[1]!.startsWith("@harnessx/")) packages.add(pkg[1]!);
    else if (dist) folders.add(dist[1] ?? ".");
  }
  return { folders, packages };
}

describe("core's entries", () => {
  test("the package exports exactly the root, /extension and /tracing", () => {
    assert.deepEqual(ENTRIES, Object.keys(SOURCES));
  });

  test("each name has one home: no two entries export the same name", () => {
    const home = new Map<string, string>();
    for (const [entry, names] of exportedNames()) {
      for (const name of names) {
        assert.equal(home.get(name), undefined, `${name} is exported by ${home.get(name)} and ${entry}`);
        home.set(name, entry);
      }
    }
  });

  test("the root holds under half of the 401 names core's one entry exported before the split", () => {
    const root = exportedNames().get("@harnessx/core")!;
    assert.ok(root.length < 401 / 2, `the root exports ${root.length} names`);
  });

  test("/tracing loads span identity, mapping and redaction: no engine, extension system or package", () => {
    const { folders, packages } = loadedBy("@harnessx/core/tracing");
    for (const folder of ["engine", "extensions", "hooks", "tools", "durable", "providers"])
      assert.ok(!folders.has(folder), `/tracing loads core's ${folder}/`);
    assert.ok(folders.has("spans") && folders.has("redact"));
    assert.deepEqual([...packages], []);
  });

  test("/extension loads the extension contract, hooks, middleware, policies and redaction: no engine or package", () => {
    const { folders, packages } = loadedBy("@harnessx/core/extension");
    for (const folder of ["engine", "tools", "durable", "providers"])
      assert.ok(!folders.has(folder), `/extension loads core's ${folder}/`);
    assert.ok(folders.has("extensions") && folders.has("hooks") && folders.has("middleware"));
    assert.deepEqual([...packages], []);
  });

  test("the root loads the engine, and none of core's dependencies until first use", () => {
    const { folders, packages } = loadedBy("@harnessx/core");
    assert.ok(folders.has("engine"));
    assert.deepEqual([...packages], []);
  });
});
