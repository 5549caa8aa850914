// The layout rules of docs/architecture: no import cycles; built-ins reach core only through its
// public entry and never each other; no extension reaches a live agent; tests under test/ use
// package entries only; every file stays under 300 lines.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, test } from "node:test";
import { cycles, importsOf, root, sourceFiles } from "./imports.js";

const PACKAGES = [
  "packages/core/src",
  "packages/artifacts/src",
  "packages/spill/src",
  "packages/mcp/src",
  "packages/discovery/src",
  "packages/budgets/src",
  "packages/prompt-cache/src",
  "packages/providers/src",
  "packages/harnessx/src",
  "recorder/src",
  "exporters/src",
  "cli/src",
  "examples/src",
];
const BUILT_INS = {
  "recorder/src": "@harnessx/recorder",
  "packages/spill/src": "@harnessx/spill",
  "packages/mcp/src": "@harnessx/mcp",
  "packages/discovery/src": "@harnessx/discovery",
  "packages/budgets/src": "@harnessx/budgets",
  "packages/prompt-cache/src": "@harnessx/prompt-cache",
  "exporters/src": "@harnessx/exporters",
} as const;
/** Libraries the built-ins share: they import no built-in at all. */
const LIBRARIES = { "packages/artifacts/src": "@harnessx/artifacts" } as const;
/** Core's public entries (its package.json `exports`): the root, `/extension`, `/tracing`. */
const CORE_ENTRIES = Object.keys(
  (JSON.parse(readFileSync(join(root, "packages/core/package.json"), "utf8")) as { exports: object }).exports,
)
  .filter((key) => key !== "./test-support")
  .map((key) => `@harnessx/core${key.slice(1)}`);
const isCoreSubpath = (spec: string) => spec.startsWith("@harnessx/core/") && !CORE_ENTRIES.includes(spec);
/** Known breaches, each with the issue that removes it. */
const PENDING: Record<string, string> = {};

describe("layout", () => {
  for (const pkg of PACKAGES) {
    test(`${pkg} has no import cycles (type-only imports included)`, () => {
      const found = cycles(sourceFiles(join(root, pkg)));
      assert.deepEqual(
        found.map((c) => c.join(" -> ")),
        [],
      );
    });
  }

  for (const [dir, self] of Object.entries(BUILT_INS)) {
    test(`${self} uses only @harnessx/core's public entries and no other built-in`, () => {
      const others = Object.values(BUILT_INS).filter((name) => name !== self);
      for (const file of sourceFiles(join(root, dir)).filter((f) => !/\.test\.ts$|\/test-support\//.test(f))) {
        const where = relative(root, file);
        if (PENDING[where]) continue;
        for (const spec of importsOf(file)) {
          assert.ok(!isCoreSubpath(spec), `${where} imports ${spec}; use one of ${CORE_ENTRIES.join(", ")}`);
          assert.ok(
            !others.some((o) => spec === o || spec.startsWith(`${o}/`)),
            `${where} imports the built-in ${spec}`,
          );
          assert.ok(!/(^|\/)packages\/core\//.test(spec), `${where} reaches into core's files (${spec})`);
        }
      }
    });
  }

  for (const [dir, self] of Object.entries(LIBRARIES)) {
    test(`${self} uses only @harnessx/core's public entries and no built-in`, () => {
      for (const file of sourceFiles(join(root, dir)).filter((f) => !/\.test\.ts$|\/test-support\//.test(f))) {
        const where = relative(root, file);
        for (const spec of importsOf(file)) {
          assert.ok(
            !isCoreSubpath(spec) && !/(^|\/)packages\/core\//.test(spec),
            `${where} imports ${spec}; use one of ${CORE_ENTRIES.join(", ")}`,
          );
          assert.ok(
            !Object.values(BUILT_INS).some((b) => spec === b || spec.startsWith(`${b}/`)),
            `${where} imports the built-in ${spec}`,
          );
        }
      }
    });
  }

  test("@harnessx/spill and @harnessx/recorder never import each other, tests included", () => {
    const pairs = [
      { dir: "packages/spill/src", other: "@harnessx/recorder", otherDir: "recorder/" },
      { dir: "recorder/src", other: "@harnessx/spill", otherDir: "packages/spill/" },
    ];
    for (const { dir, other, otherDir } of pairs) {
      for (const file of sourceFiles(join(root, dir))) {
        const where = relative(root, file);
        for (const spec of importsOf(file)) {
          assert.ok(spec !== other && !spec.startsWith(`${other}/`), `${where} imports ${spec}`);
          if (spec.startsWith("."))
            assert.ok(
              !relative(root, join(file, "..", spec)).startsWith(otherDir),
              `${where} reaches into ${otherDir} (${spec})`,
            );
        }
      }
      const manifest = JSON.parse(readFileSync(join(root, dir, "..", "package.json"), "utf8")) as Record<
        string,
        Record<string, string> | undefined
      >;
      for (const field of ["dependencies", "devDependencies", "peerDependencies"]) {
        assert.equal(manifest[field]?.[other], undefined, `${dir}/../package.json lists ${other} in ${field}`);
      }
    }
  });

  test("@harnessx/artifacts, spill, mcp, recorder and exporters list every package their sources import (exporters: optional peers too)", () => {
    for (const dir of [
      "packages/artifacts/src",
      "packages/spill/src",
      "packages/mcp/src",
      "packages/discovery/src",
      "packages/budgets/src",
      "packages/prompt-cache/src",
      "recorder/src",
      "exporters/src",
    ]) {
      const manifest = JSON.parse(readFileSync(join(root, dir, "..", "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      for (const file of sourceFiles(join(root, dir)).filter((f) => !/\.test\.ts$|\/test-support\//.test(f))) {
        for (const spec of importsOf(file).filter((s) => !s.startsWith(".") && !s.startsWith("node:"))) {
          const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
          assert.ok(
            manifest.dependencies?.[name] ?? manifest.peerDependencies?.[name],
            `${relative(root, file)} imports ${spec}, which ${dir}/../package.json does not list`,
          );
        }
      }
    }
  });

  test("tests under test/ reach packages through their entries (test-support included), never their files", () => {
    const inside = join(root, "test") + sep;
    const offenders = sourceFiles(join(root, "test")).flatMap((file) =>
      importsOf(file)
        .filter(
          (spec) =>
            /(^|\/)src\//.test(spec) || (spec.startsWith(".") && !resolve(dirname(file), spec).startsWith(inside)),
        )
        .map((spec) => `${relative(root, file)} imports ${spec}`),
    );
    assert.deepEqual(offenders, []);
  });

  test("no code reaches for an agent through an extension or hook context", () => {
    const offenders = PACKAGES.flatMap((pkg) => sourceFiles(join(root, pkg)))
      .concat(sourceFiles(join(root, "test")))
      .filter((file) =>
        /\bctx\.agent\b|\bhook\.agent\b|\bevent\.agent\b/.test(readFileSync(file, "utf8").replace(/\/\/.*$/gm, "")),
      )
      .filter((file) => !file.endsWith("layout.test.ts"))
      .map((file) => relative(root, file));
    assert.deepEqual(offenders, []);
  });

  test("every source and test file stays under 300 lines (one concept per file)", () => {
    const long = PACKAGES.flatMap((pkg) => sourceFiles(join(root, pkg)))
      .concat(sourceFiles(join(root, "test")))
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, "utf8").split("\n").length }))
      .filter((f) => f.lines > 300)
      .map((f) => `${f.file}: ${f.lines} lines`);
    assert.deepEqual(long, []);
  });
});
