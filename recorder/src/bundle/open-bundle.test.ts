// openBundle's options (limits, keepEvents) and its checks after the checksums: declared sizes,
// a bomb anywhere refused before anything is inflated, artifacts against their ids.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { ArtifactStore, zstdCompress, zstdDecompress } from "@harnessx/artifacts";
import {
  BundleChecksumError,
  BundleContentError,
  BundleFormatError,
  BundleSignerError,
  BundleTooLargeError,
  exportIncident,
  openBundle,
  type RecordedEvent,
} from "../index.js";
import { manifestOf, membersOf, reseal, withMember, writeTar, type TarMember } from "../test-support/bundle-surgery.js";
import { eventLine, runManifest, writeHandMadeRun } from "../test-support/hand-made-run.js";
import { tempDir } from "../../../test/support/system.js";

const RUN = "run_open";
const MiB = 1024 * 1024;
const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");
let dir: string;
let cleanup: () => void;
let path: string;
let good: TarMember[];
let id: string;

/** An event line with an inline payload, as the recorder writes one. */
const withPayload = (seq: number): string =>
  `${JSON.stringify({ ...JSON.parse(eventLine(RUN, seq, "tool_call_end")), payload: { result: `answer ${seq}` } })}\n`;

before(async () => {
  ({ dir, cleanup } = tempDir());
  ({ sha256: id } = await new ArtifactStore(dir).put("spilled rows"));
  const lines = [
    eventLine(RUN, 1, "agent_start"),
    withPayload(2),
    eventLine(RUN, 3, "spill", { sha256: id }),
    eventLine(RUN, 4, "agent_end"),
  ];
  writeHandMadeRun(dir, RUN, [lines.join("")], runManifest(RUN, { status: "completed", endedAt: 1_700_000_000_100 }));
  ({ path } = await exportIncident({ dir, runId: RUN, reason: "open", out: join(dir, "good.tar"), signingKey: false }));
  good = await membersOf(path);
});
after(() => cleanup());

let n = 0;
async function written(members: TarMember[]): Promise<string> {
  const out = join(dir, `case-${++n}.tar`);
  await writeTar(out, members);
  return out;
}
const ARTIFACT = () => `artifacts/${id}.zst`;
const eventsText = async () =>
  (await zstdDecompress(good.find((m) => m.name === "events.ndjson.zst")!.data)).toString();

describe("keepEvents: false keeps the member's bytes, not the events", () => {
  test("events is empty; eventsOneByOne and lines give what the default gives", async () => {
    const kept = await openBundle(path);
    const lean = await openBundle(path, { keepEvents: false });
    assert.equal(kept.events.length, 4);
    assert.deepEqual(lean.events, []);
    assert.deepEqual([...lean.eventsOneByOne()], kept.events);
    assert.deepEqual([...kept.eventsOneByOne()], kept.events);
    assert.deepEqual([...lean.lines()], (await eventsText()).trimEnd().split("\n"));
    assert.deepEqual(
      [...kept.lines()],
      kept.events.map((e) => JSON.stringify(e)),
    );
  });
  test("eventsOneByOne leaves out the inline payloads `skip` names, either way", async () => {
    const withoutPayloads = (events: Iterable<RecordedEvent>) => [...events].map((e) => "payload" in e);
    for (const opened of [await openBundle(path), await openBundle(path, { keepEvents: false })]) {
      assert.deepEqual(withoutPayloads(opened.eventsOneByOne()), [false, true, false, false]);
      assert.deepEqual(withoutPayloads(opened.eventsOneByOne(true)), [false, false, false, false]);
      assert.deepEqual(
        withoutPayloads(opened.eventsOneByOne((e) => e.seq === 3)),
        [false, true, false, false],
        "only the named events' payloads",
      );
      assert.deepEqual(
        [...opened.eventsOneByOne(true)].map((e) => e.seq),
        [1, 2, 3, 4],
      );
    }
  });
});

describe("limits and declared sizes", () => {
  test("the caller's limits apply", async () => {
    await assert.rejects(openBundle(path, { limits: { maxTotalBytes: 100 } }), BundleTooLargeError);
  });
  test("an unsigned bundle is refused when a signer is required", async () => {
    await assert.rejects(
      openBundle(path, { signedBy: ["SHA256:anyone"] }),
      (e: unknown) => e instanceof BundleSignerError && e.bundlePath === path && e.signer === null,
    );
  });
  test("a member that inflates to another size than the manifest declares", async () => {
    const text = await eventsText();
    const lied = reseal(
      good,
      (m) => (m.members.find((e) => e.path === "events.ndjson.zst")!.contentBytes = text.length - 1),
    );
    await assert.rejects(
      openBundle(await written(lied)),
      (e: unknown) =>
        e instanceof BundleChecksumError &&
        e.member === "events.ndjson.zst" &&
        e.message.includes(`decompresses to ${text.length} bytes, the manifest says ${text.length - 1}`),
    );
  });
  test("a bomb in an artifact is refused from its headers before the events are inflated (whose damage would be found first)", async () => {
    const bomb = await zstdCompress(Buffer.alloc(2 * MiB, 0x61));
    const events = Buffer.from(`${await eventsText()}not an event\n`);
    const frame = await zstdCompress(events);
    const members = reseal(withMember(withMember(good, "events.ndjson.zst", frame), ARTIFACT(), bomb), (m) => {
      m.members.find((e) => e.path === "events.ndjson.zst")!.contentBytes = events.length;
      m.members.find((e) => e.path === ARTIFACT())!.contentBytes = 2 * MiB;
    });
    await assert.rejects(
      openBundle(await written(members), { limits: { maxMemberBytes: MiB } }),
      (e: unknown) => e instanceof BundleTooLargeError && e.member === ARTIFACT() && e.bytes === 2 * MiB,
    );
    await assert.rejects(
      openBundle(await written(members)),
      BundleContentError,
      "within the limits, the events' damage is found",
    );
  });
});

describe("artifacts", () => {
  test("an artifact whose content is not its id is refused", async () => {
    const other = Buffer.from("other rows");
    const frame = await zstdCompress(other);
    const members = reseal(
      withMember(good, ARTIFACT(), frame),
      (m) => (m.members.find((e) => e.path === ARTIFACT())!.contentBytes = other.length),
    );
    await assert.rejects(
      openBundle(await written(members)),
      (e: unknown) =>
        e instanceof BundleChecksumError &&
        e.member === ARTIFACT() &&
        /fails verification: content does not match its sha256/.test(e.message),
    );
  });
  test("asking for an artifact the bundle does not hold", async () => {
    const missing = "f".repeat(64);
    await assert.rejects(
      (await openBundle(path)).artifact(missing),
      (e: unknown) =>
        e instanceof BundleFormatError && e.message.endsWith(`: artifact "${missing}" is not in this bundle`),
    );
  });
  test("a bundle without `spills` (written before spills were redacted) serves its artifacts by id", async () => {
    const old = reseal(good, (m) => delete m.spills);
    assert.equal(manifestOf(old).spills, undefined);
    const opened = await openBundle(await written(old));
    assert.equal(sha256(await opened.artifact(id)), id);
  });
});
