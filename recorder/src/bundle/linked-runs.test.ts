// A bundle of a run with subagents holds each child's run as a nested bundle (version 2): opened,
// every level is verified; a nested bundle that was edited, swapped or left unlisted is refused.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  BundleChecksumError,
  BundleContentError,
  BundleFormatError,
  LINKED_BUNDLE_VERSION,
  openBundle,
  openRecording,
  type BundleManifest,
} from "../index.js";
import {
  manifestOf,
  membersOf,
  reseal,
  tarOf,
  withMember,
  writeTar,
  type TarMember,
} from "../test-support/bundle-surgery.js";
import { exportParentWithChild } from "../test-support/linked-run.js";
import { tempDir } from "../../../test/support/system.js";

let dir: string;
let cleanup: () => void;
let parentRunId: string;
let childRunId: string;
let good: TarMember[];

before(async () => {
  ({ dir, cleanup } = tempDir());
  ({ parentRunId, childRunId, members: good } = await exportParentWithChild(dir));
});
after(() => cleanup());

let n = 0;
async function open(members: TarMember[]) {
  const path = join(dir, `case-${++n}.tar`);
  await writeTar(path, members);
  return openBundle(path);
}
const linkedMember = () => manifestOf(good).linkedRuns![0].member;

describe("a bundle holds the runs its run delegated to", () => {
  test("version 2, the child's bundle nested and opened with it, linked to the parent's tool call", async () => {
    const opened = await open(good);
    assert.equal(opened.manifest.version, LINKED_BUNDLE_VERSION);
    assert.equal(opened.linked.length, 1);
    const child = opened.linked[0];
    assert.equal(child.run.runId, childRunId);
    assert.equal(child.run.parentRunId, parentRunId);
    const toolStart = opened.events.find((e) => e.kind === "tool_call_start");
    assert.equal(child.run.parentSpanId, toolStart?.spanId);
    assert.equal(opened.manifest.linkedRuns![0].parentSpanId, toolStart?.spanId);
  });

  test("openRecording of the bundle and of the store give the same linked runs", async () => {
    await using fromBundle = await openRecording(join(dir, "good.tar"));
    await using fromStore = await openRecording(parentRunId, { storeDir: dir });
    const ids = async (r: typeof fromBundle) => {
      const linked = await r.linkedRuns();
      const out = linked.map((l) => [l.run.runId, l.run.agent, l.run.status]);
      await Promise.all(linked.map((l) => l.close()));
      return out;
    };
    assert.deepEqual(await ids(fromBundle), [[childRunId, "child", "completed"]]);
    assert.deepEqual(await ids(fromStore), await ids(fromBundle));
  });
});

describe("a tampered linked run is refused", () => {
  test("a nested bundle edited (checksums left stale) fails its checksum", async () => {
    const nested = good.find((m) => m.name === linkedMember())!.data;
    const edited = Buffer.from(nested);
    edited[edited.length - 2000] ^= 1;
    await assert.rejects(open(withMember(good, linkedMember(), edited)), BundleChecksumError);
  });

  test("a nested bundle edited inside and resealed at both levels is refused by its own checks", async () => {
    const inner = await membersOf(good.find((m) => m.name === linkedMember())!.data);
    const forged = reseal(
      withMember(
        inner,
        "run.json",
        Buffer.from(
          JSON.stringify({
            ...JSON.parse(inner.find((m) => m.name === "run.json")!.data.toString()),
            status: "failed",
          }),
        ),
      ),
    );
    const path = join(dir, "forged-inner.tar");
    await writeTar(path, forged);
    await assert.rejects(open(reseal(withMember(good, linkedMember(), readFileSync(path)))), BundleContentError);
  });

  test("a nested run that is not the one linked (another run put in its place) is refused", async () => {
    const manifest = (m: BundleManifest) => void (m.linkedRuns![0].runId = "run_someone_else");
    await assert.rejects(
      open(reseal(good, manifest)),
      (e: unknown) => e instanceof BundleContentError && /manifest links run run_someone_else/.test(e.message),
    );
  });

  test("bundles nested deeper than 8 levels are refused, the error naming the path down to the deepest", async () => {
    // Each level wraps the previous in place of the child's bundle; the ninth (depth 8) still links one.
    let nested = good;
    for (let level = 0; level < 8; level++) nested = reseal(withMember(good, linkedMember(), await tarOf(nested)));
    const path = join(dir, "deep.tar");
    await writeTar(path, nested);
    await assert.rejects(
      openBundle(path),
      (e: unknown) =>
        e instanceof BundleFormatError &&
        e.bundlePath === path + `#${linkedMember()}`.repeat(8) &&
        e.message.endsWith(": linked runs nest deeper than 8 levels"),
    );
  });

  test("a linked member the manifest does not name is refused", async () => {
    await assert.rejects(
      open(reseal(good, (m) => void delete m.linkedRuns)),
      (e: unknown) => e instanceof BundleFormatError && /not part of the bundle format/.test(e.message),
    );
  });
});
