// A nested bundle must be the run its manifest entry links, and that run must name the bundle's
// run as its parent: a child whose run.json was edited to point elsewhere (checksums recomputed at
// both levels, as an attacker would) is refused.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BundleContentError, openBundle, type RunManifest } from "../index.js";
import { manifestOf, membersOf, reseal, withMember, writeTar, type TarMember } from "../test-support/bundle-surgery.js";
import { exportParentWithChild } from "../test-support/linked-run.js";
import { tempDir } from "../../../test/support/system.js";

let dir: string;
let cleanup: () => void;
let parentRunId: string;
let good: TarMember[];

before(async () => {
  ({ dir, cleanup } = tempDir());
  ({ parentRunId, members: good } = await exportParentWithChild(dir));
});
after(() => cleanup());

/** The bundle with its nested run's run.json edited by `edit`, resealed inside and out. */
async function withChildRun(name: string, edit: (run: RunManifest) => void): Promise<string> {
  const member = manifestOf(good).linkedRuns![0].member;
  const inner = await membersOf(good.find((m) => m.name === member)!.data);
  const run = JSON.parse(inner.find((m) => m.name === "run.json")!.data.toString()) as RunManifest;
  edit(run);
  const innerPath = join(dir, `${name}-inner.tar`);
  await writeTar(innerPath, reseal(withMember(inner, "run.json", Buffer.from(JSON.stringify(run)))));
  const path = join(dir, `${name}.tar`);
  await writeTar(path, reseal(withMember(good, member, readFileSync(innerPath))));
  return path;
}

describe("a nested run must name the bundle's run as its parent", () => {
  test("the bundle as exported opens, its child naming it", async () => {
    const opened = await openBundle(await withChildRun("same", () => undefined));
    assert.equal(opened.linked[0].run.parentRunId, parentRunId);
  });

  test("a child whose parentRunId was edited to another run is refused", async () => {
    const path = await withChildRun("other-parent", (run) => void (run.parentRunId = "run_someone_else"));
    await assert.rejects(
      openBundle(path),
      (e: unknown) =>
        e instanceof BundleContentError &&
        /\(parent run_someone_else\), the manifest links run .* to run_/.test(e.message),
    );
  });

  test("a child whose parentRunId was removed is refused", async () => {
    const path = await withChildRun("no-parent", (run) => void delete run.parentRunId);
    await assert.rejects(
      openBundle(path),
      (e: unknown) => e instanceof BundleContentError && /\(parent none\)/.test(e.message),
    );
  });
});
