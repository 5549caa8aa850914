// Tampered bundles: each check of openBundle has a test that fails when the check is removed.
// `reseal` recomputes checksums the way an attacker would; tests that leave them stale say so.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { zstdCompress, zstdDecompress } from "@harnessx/artifacts";
import {
  BundleChecksumError,
  BundleContentError,
  BundleFormatError,
  FlightRecorderExtension,
  openBundle,
  type BundleManifest,
} from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { manifestOf, membersOf, reseal, withMember, writeTar, type TarMember } from "../test-support/bundle-surgery.js";
import { tempDir } from "../../../test/support/system.js";

let dir: string;
let cleanup: () => void;
let good: TarMember[];

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

before(async () => {
  ({ dir, cleanup } = tempDir());
  const recorder = new FlightRecorderExtension({ dir, inlinePayloadBytes: 100 });
  const agent = scriptedAgent(echoScript(2), [recorder]);
  const { runId } = await agent.run("tamper with me");
  await agent.close();
  const { path } = await recorder.exportIncident({ runId, reason: "ticket-7", out: join(dir, "good.tar") });
  good = await membersOf(path);
  assert.ok(
    good.some((m) => m.name.startsWith("artifacts/")),
    "payloads stored aside as artifacts",
  );
});
after(() => cleanup());

let n = 0;
async function open(members: TarMember[]): Promise<unknown> {
  const path = join(dir, `case-${++n}.tar`);
  await writeTar(path, members);
  return openBundle(path);
}

const refusal = (type: abstract new (...args: never[]) => Error, member: string, message?: RegExp) => (e: unknown) =>
  e instanceof type &&
  (e as { member?: string }).member === member &&
  (message === undefined || message.test((e as Error).message));

/** The manifest with an edit, its checksums left as they were. */
function editedManifest(edit: (m: BundleManifest) => void): TarMember[] {
  const manifest = manifestOf(good);
  edit(manifest);
  return withMember(good, "manifest.json", Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
}

/** Events edited in place and recompressed to a valid frame of exactly the original length (so only a sha256 tells them apart). */
async function sameLengthEvents(): Promise<Buffer> {
  const original = good.find((m) => m.name === "events.ndjson.zst")!.data;
  const text = (await zstdDecompress(original)).toString();
  // Every occurrence is edited alike, so the text repeats itself as before and most edits keep the
  // frame length; span ids are random per run, so which ones do varies: try many.
  const edits = [..."bcdfghjklnpqrsuvwxyz"].map((letter) =>
    text.replaceAll("tamper with me", `tamper with ${letter}e`),
  );
  for (const edited of edits) {
    const frame = await zstdCompress(Buffer.from(edited));
    if (frame.length === original.length && !frame.equals(original)) return frame;
  }
  throw new Error("no same-length edit found");
}

describe("manifest.json is checked against SHA256SUMS", () => {
  for (const [what, edit] of [
    ["trigger.reason", (m: BundleManifest) => (m.trigger.reason = "nothing to see")],
    ["run.status", (m: BundleManifest) => (m.run.status = "failed")],
    ["dropped.events", (m: BundleManifest) => (m.dropped.events = 7)],
  ] as const) {
    test(`an edited ${what} with stale checksums is refused naming manifest.json`, async () => {
      await assert.rejects(
        open(editedManifest(edit as (m: BundleManifest) => void)),
        refusal(BundleChecksumError, "manifest.json", /differs from SHA256SUMS/),
      );
    });
  }
});

describe("the events member's sha256 is checked (a valid, recompressed frame of the same length)", () => {
  test("manifest and SHA256SUMS both stale", async () => {
    const members = withMember(good, "events.ndjson.zst", await sameLengthEvents());
    await assert.rejects(
      open(members),
      refusal(BundleChecksumError, "events.ndjson.zst", /sha256 differs from the manifest/),
    );
  });
  test("the manifest updated, SHA256SUMS stale for the events", async () => {
    const frame = await sameLengthEvents();
    const resealed = reseal(withMember(good, "events.ndjson.zst", frame));
    const staleSums = good
      .find((m) => m.name === "SHA256SUMS")!
      .data.toString()
      .replace(/^\S+(?= {2}manifest\.json$)/m, sha256(resealed.find((m) => m.name === "manifest.json")!.data));
    await assert.rejects(
      open(withMember(resealed, "SHA256SUMS", Buffer.from(staleSums))),
      refusal(BundleChecksumError, "events.ndjson.zst", /sha256 differs from SHA256SUMS/),
    );
  });
  test("SHA256SUMS updated, the manifest stale", async () => {
    const frame = await sameLengthEvents();
    const sums = good
      .find((m) => m.name === "SHA256SUMS")!
      .data.toString()
      .replace(/^\S+(?= {2}events\.ndjson\.zst$)/m, sha256(frame));
    await assert.rejects(
      open(withMember(withMember(good, "events.ndjson.zst", frame), "SHA256SUMS", Buffer.from(sums))),
      refusal(BundleChecksumError, "events.ndjson.zst", /sha256 differs from the manifest/),
    );
  });
});

describe("contents are checked against their schema, with checksums that match", () => {
  test("garbage run.json", async () => {
    await assert.rejects(
      open(reseal(withMember(good, "run.json", Buffer.from("{ this is not json")))),
      refusal(BundleContentError, "run.json", /not valid JSON/),
    );
    await assert.rejects(
      open(reseal(withMember(good, "run.json", Buffer.from('{"runId": 5}')))),
      refusal(BundleContentError, "run.json", /runId must be a non-empty string/),
    );
  });
  test("a run.json whose redaction description readers print is of the wrong shape", async () => {
    const run = JSON.parse(good.find((m) => m.name === "run.json")!.data.toString()) as Record<string, unknown>;
    for (const [redaction, problem] of [
      [{ patterns: 5 }, /redaction\.keys is missing/],
      [{ keys: [], patterns: 5 }, /redaction\.patterns must be an array/],
      [{ keys: [], patterns: [{ source: "(a+)+$" }] }, /redaction\.patterns\[0\]\.name is missing/],
      ["on", /redaction must be an object/],
    ] as const) {
      await assert.rejects(
        open(reseal(withMember(good, "run.json", Buffer.from(JSON.stringify({ ...run, redaction }))))),
        refusal(BundleContentError, "run.json", problem),
      );
    }
    assert.ok(
      await open(reseal(withMember(good, "run.json", Buffer.from(JSON.stringify({ ...run, redaction: "off" }))))),
      "off is a policy",
    );
  });
  test("a manifest without run, or with a member of the wrong shape", async () => {
    await assert.rejects(
      open(reseal(good, (m) => delete (m as Partial<BundleManifest>).run)),
      refusal(BundleContentError, "manifest.json", /^.*run is missing/),
    );
    await assert.rejects(
      open(reseal(good, (m) => ((m.members[0] as { bytes: unknown }).bytes = "12"))),
      refusal(BundleContentError, "manifest.json", /members\[0\]\.bytes must be a whole number/),
    );
  });
  for (const line of [
    "[1,2]",
    "{}",
    '{"v":1,"seq":0,"ts":1,"runId":"r","kind":"x","attrs":{}}',
    '{"v":1,"seq":3,"ts":1,"runId":"r","kind":"x","attrs":[]}',
    "not json",
  ]) {
    test(`an event line ${line} is refused naming the member and the line`, async () => {
      const text = (await zstdDecompress(good.find((m) => m.name === "events.ndjson.zst")!.data)).toString();
      const lines = text.trimEnd().split("\n");
      lines.splice(2, 0, line);
      const frame = await zstdCompress(Buffer.from(`${lines.join("\n")}\n`));
      const members = reseal(
        withMember(good, "events.ndjson.zst", frame),
        (m) => (m.members.find((e) => e.path === "events.ndjson.zst")!.contentBytes = lines.join("\n").length + 1),
      );
      await assert.rejects(open(members), refusal(BundleContentError, "events.ndjson.zst", /line 3: /));
    });
  }
  test("a manifest whose counts contradict the events (checksums resealed)", async () => {
    await assert.rejects(
      open(reseal(good, (m) => (m.dropped.events = 4))),
      refusal(BundleContentError, "manifest.json", /dropped/),
    );
    await assert.rejects(
      open(reseal(good, (m) => (m.run.status = "failed"))),
      refusal(BundleContentError, "manifest.json", /\(completed\)/),
    );
  });
});

describe("members are exactly the format's, and the artifacts exactly those the events reference (checksums resealed)", () => {
  const artifact = () => good.find((m) => m.name.startsWith("artifacts/"))!;
  test("a listed member outside the format", async () => {
    const members = withMember(good, "notes.txt", Buffer.from("hello"));
    const listed = reseal(members, (m) =>
      m.members.push({ path: "notes.txt", bytes: 5, sha256: sha256(Buffer.from("hello")) }),
    );
    await assert.rejects(
      open(listed),
      (e: unknown) =>
        e instanceof BundleFormatError &&
        /member "notes\.txt" is not part of the bundle format/.test((e as Error).message),
    );
  });
  test("an artifact the events reference, removed with its listing", async () => {
    const gone = artifact().name;
    const members = reseal(
      good.filter((m) => m.name !== gone),
      (m) => (m.members = m.members.filter((e) => e.path !== gone)),
    );
    await assert.rejects(
      open(members),
      refusal(
        BundleContentError,
        "events.ndjson.zst",
        /references artifact [0-9a-f]{64}, which is neither inside nor listed as missing/,
      ),
    );
  });
  test("an artifact no event references", async () => {
    const data = Buffer.from("unrelated");
    const frame = await zstdCompress(data);
    const name = `artifacts/${sha256(data)}.zst`;
    const members = reseal(withMember(good, name, frame), (m) =>
      m.members.push({ path: name, bytes: frame.length, sha256: sha256(frame), contentBytes: data.length }),
    );
    await assert.rejects(open(members), refusal(BundleContentError, name, /no event references it/));
  });
});
