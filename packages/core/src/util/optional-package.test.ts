import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { pathToFileURL } from "node:url";
import { HarnessError, MissingPackageError } from "../errors.js";
import { importOptional } from "./optional-package.js";

// A package whose package.json declares the peers, as @harnessx/providers does; the module URL
// passed is one of its files, the imports below fail from this test's folder (none is installed).
const dir = mkdtempSync(join(tmpdir(), "hx-optional-"));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "dist"));
writeFileSync(
  join(dir, "package.json"),
  JSON.stringify({ name: "pkg", peerDependencies: { "hx-absent-sdk": "^6.30.1", "@hx-absent/otel": "~2.1.0" } }),
);
const moduleUrl = pathToFileURL(join(dir, "dist", "feature.js")).href;
const load = (specifier: string) => () => import(specifier);

test("a named peer that is not installed: MissingPackageError naming it, the feature and the install command with the declared range", async () => {
  const err = await importOptional(
    moduleUrl,
    { feature: "OpenAIProvider", packages: ["hx-absent-sdk"] },
    load("hx-absent-sdk"),
  ).catch((e: unknown) => e);
  assert.ok(err instanceof MissingPackageError && err instanceof HarnessError);
  assert.equal(err.code, "missing_package");
  assert.equal(err.message, 'OpenAIProvider needs the "hx-absent-sdk" package: npm install hx-absent-sdk@^6.30.1');
  assert.equal(err.packageName, "hx-absent-sdk");
  assert.equal(err.feature, "OpenAIProvider");
  assert.equal((err.cause as { code?: string }).code, "ERR_MODULE_NOT_FOUND");
});

test("a feature needing several peers: the error names the missing one and the command installs them all; a subpath counts", async () => {
  const need = { feature: "trace convert", packages: ["hx-absent-sdk", "@hx-absent/otel", "hx-undeclared"] };
  const err = await importOptional(moduleUrl, need, load("@hx-absent/otel/node-http")).catch((e: unknown) => e);
  assert.ok(err instanceof MissingPackageError);
  assert.equal(err.packageName, "@hx-absent/otel");
  // A peer the manifest does not declare is installed at npm's default version.
  assert.equal(err.install, "npm install hx-absent-sdk@^6.30.1 @hx-absent/otel@~2.1.0 hx-undeclared");
});

test("a missing package that is not one of the named peers (one the peer itself needs, or a prefix of the name) is rethrown as it is", async () => {
  const cases: Array<[specifier: string, named: string]> = [
    ["hx-absent-sdk-extra", "hx-absent-sdk"],
    ["hx-absent", "hx-absent-sdk"],
    ["hx-absent-sdk", "hx-other"],
  ];
  for (const [specifier, named] of cases) {
    const err = await importOptional(moduleUrl, { feature: "f", packages: [named] }, load(specifier)).catch(
      (e: unknown) => e,
    );
    assert.ok(err instanceof Error && !(err instanceof HarnessError), `${specifier} for ${named}`);
    assert.equal((err as { code?: string }).code, "ERR_MODULE_NOT_FOUND");
  }
});

test("a module that loads returns its value; one that throws while loading keeps its error; no manifest leaves the range out", async () => {
  assert.equal(
    (await importOptional(moduleUrl, { feature: "f", packages: ["node:path"] }, () => import("node:path"))).sep,
    "/",
  );
  const broken = new Error("the SDK threw at load");
  await assert.rejects(
    importOptional(moduleUrl, { feature: "f", packages: ["hx-absent-sdk"] }, () => Promise.reject(broken)),
    (e) => e === broken,
  );
  // The same words from something else than the loader (no ERR_MODULE_NOT_FOUND code) are not a missing package.
  const lookalike = new Error("Cannot find package 'hx-absent-sdk' imported from a tool's output");
  await assert.rejects(
    importOptional(moduleUrl, { feature: "f", packages: ["hx-absent-sdk"] }, () => Promise.reject(lookalike)),
    (e) => e === lookalike,
  );
  const err = await importOptional(
    "data:text/javascript,",
    { feature: "f", packages: ["hx-absent-sdk"] },
    load("hx-absent-sdk"),
  ).catch((e: unknown) => e);
  assert.ok(err instanceof MissingPackageError);
  assert.equal(err.install, "npm install hx-absent-sdk");
});
