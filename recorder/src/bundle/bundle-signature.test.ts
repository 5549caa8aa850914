// Signed bundles: checksums say a bundle is whole, a signature says who wrote it. Each forgery
// here recomputes every checksum, as an attacker would; what stops it is the signature (refused
// whatever the reader asks), or the signer the reader requires (`signedBy`).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  BundleContentError,
  BundleSignatureError,
  BundleSignerError,
  SigningKey,
  openBundle,
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
import { recordParentWithChild } from "../test-support/linked-run.js";
import { tempDir } from "../../../test/support/system.js";

let dir: string;
let cleanup: () => void;
let signed: TarMember[];
let unsigned: TarMember[];
const owner = SigningKey.generate();
const attacker = SigningKey.generate();

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

before(async () => {
  ({ dir, cleanup } = tempDir());
  const { parentRunId: runId, recorder } = await recordParentWithChild(dir, "wire 100 to alice");
  const exported = await recorder.exportIncident({
    runId,
    reason: "ticket-7",
    out: join(dir, "signed.tar"),
    signingKey: owner,
  });
  assert.equal(exported.signedBy, owner.fingerprint);
  signed = await membersOf(exported.path);
  const plain = await recorder.exportIncident({
    runId,
    reason: "ticket-7",
    out: join(dir, "unsigned.tar"),
    signingKey: false,
  });
  assert.equal(plain.signedBy, null);
  unsigned = await membersOf(plain.path);
});
after(() => cleanup());

let n = 0;
async function open(members: TarMember[], signedBy?: readonly string[]) {
  const path = join(dir, `case-${++n}.tar`);
  await writeTar(path, members);
  return openBundle(path, signedBy ? { signedBy } : {});
}

/** The manifest written as given (its signature untouched), with SHA256SUMS agreeing. */
function withManifest(
  members: readonly TarMember[],
  manifest: BundleManifest,
  text = `${JSON.stringify(manifest, null, 2)}\n`,
): TarMember[] {
  const bytes = Buffer.from(text);
  const sums = members
    .find((m) => m.name === "SHA256SUMS")!
    .data.toString()
    .replace(/^\S+(?= {2}manifest\.json$)/m, sha256(bytes));
  return withMember(withMember(members, "manifest.json", bytes), "SHA256SUMS", Buffer.from(sums));
}

/** Resealed after `edit`, the owner's old signature put back: what an attacker without the key can write. */
function keepingSignature(members: readonly TarMember[]): TarMember[] {
  const resealed = reseal(members);
  const manifest = manifestOf(resealed);
  manifest.signature = manifestOf(members).signature;
  return withManifest(resealed, manifest);
}

const linkedMember = () => manifestOf(signed).linkedRuns![0].member;
const editedRunJson = (members: readonly TarMember[]): TarMember[] => {
  const run = JSON.parse(members.find((m) => m.name === "run.json")!.data.toString()) as { agent: string };
  run.agent = "someone else";
  return withMember(members, "run.json", Buffer.from(JSON.stringify(run)));
};
/** The linked run's bundle resealed after `edit` (its signature dropped, or made with `sign`). */
async function withChild(
  members: readonly TarMember[],
  sign?: SigningKey,
  edit: (m: TarMember[]) => TarMember[] = (m) => m,
): Promise<TarMember[]> {
  const child = await membersOf(members.find((m) => m.name === linkedMember())!.data);
  return withMember(members, linkedMember(), await tarOf(reseal(edit(child), undefined, sign)));
}
const isSignature = (member: string) => (e: unknown) => e instanceof BundleSignatureError && e.member === member;
const wrongSigner = (found: string | null) => (e: unknown) =>
  e instanceof BundleSignerError &&
  e.signer === found &&
  e.message.includes(owner.fingerprint) &&
  (found === null ? /unsigned/.test(e.message) : e.message.includes(found));

describe("a signed bundle names and proves its signer", () => {
  test("the signer is the exporting key, the linked run's bundle signed by the same key; requiring that key accepts it", async () => {
    const opened = await open(signed, [owner.fingerprint]);
    assert.equal(opened.signer?.fingerprint, owner.fingerprint);
    assert.equal(opened.signer?.publicKey, owner.publicKey);
    assert.equal(opened.linked[0].signer?.fingerprint, owner.fingerprint);
    assert.equal(
      (await open(signed, [attacker.fingerprint, owner.fingerprint])).signer?.fingerprint,
      owner.fingerprint,
      "any of the accepted keys",
    );
  });
  test("an unsigned bundle (as every bundle before signing) opens, signer null; a reader requiring a key refuses it", async () => {
    const opened = await open(unsigned);
    assert.equal(opened.signer, null);
    assert.equal(opened.linked[0].signer, null);
    await assert.rejects(open(unsigned, [owner.fingerprint]), wrongSigner(null));
  });
  test("the signature covers the manifest's content, not its layout: re-indented with keys reordered, it still verifies", async () => {
    const manifest = manifestOf(signed);
    const reordered = Object.fromEntries(Object.entries(manifest).reverse()) as unknown as BundleManifest;
    assert.equal(
      (await open(withManifest(signed, manifest, JSON.stringify(reordered)), [owner.fingerprint])).signer?.fingerprint,
      owner.fingerprint,
    );
  });
});

describe("a member edited, every checksum recomputed", () => {
  test("the owner's signature kept: refused by any reader (the signature no longer matches)", async () => {
    await assert.rejects(open(keepingSignature(editedRunJson(signed))), isSignature("manifest.json"));
  });
  test("the signature dropped: refused while the linked run's bundle keeps the owner's; with that one dropped too, it reads as unsigned, which a reader requiring the owner's key refuses", async () => {
    await assert.rejects(open(reseal(editedRunJson(signed))), isSignature(linkedMember()));
    const stripped = reseal(editedRunJson(await withChild(signed)));
    assert.equal((await open(stripped)).signer, null);
    await assert.rejects(open(stripped, [owner.fingerprint]), wrongSigner(null));
  });
  test("re-signed with the attacker's key (their public key swapped in), the linked run's too: it names the attacker; under the owner's key it is refused naming both", async () => {
    const forged = reseal(editedRunJson(await withChild(signed, attacker)), undefined, attacker);
    assert.equal(manifestOf(forged).signature?.publicKey, attacker.publicKey);
    assert.equal((await open(forged)).signer?.fingerprint, attacker.fingerprint);
    await assert.rejects(open(forged, [owner.fingerprint]), wrongSigner(attacker.fingerprint));
  });
});

describe("the manifest edited, SHA256SUMS recomputed, the signature kept", () => {
  for (const [what, edit] of [
    ["trigger.reason", (m: BundleManifest) => (m.trigger.reason = "nothing to see")],
    ["createdAt", (m: BundleManifest) => (m.createdAt = "2020-01-01T00:00:00.000Z")],
    ["producer.recorder (a field no schema checks)", (m: BundleManifest) => (m.producer.recorder = "9.9.9")],
    ["a field added", (m: BundleManifest) => Object.assign(m, { note: "trust me" })],
    [
      "the signer's public key, swapped for the attacker's",
      (m: BundleManifest) => (m.signature!.publicKey = attacker.publicKey),
    ],
  ] as const) {
    test(what, async () => {
      const manifest = manifestOf(signed);
      (edit as (m: BundleManifest) => void)(manifest);
      await assert.rejects(open(withManifest(signed, manifest)), isSignature("manifest.json"));
    });
  }
  test("a public key that is no Ed25519 key, or a signature of the wrong shape", async () => {
    const zero = manifestOf(signed);
    zero.signature!.publicKey = Buffer.alloc(32).toString("base64");
    await assert.rejects(open(withManifest(signed, zero)), isSignature("manifest.json"));
    const short = manifestOf(signed);
    short.signature!.value = short.signature!.value.slice(4);
    await assert.rejects(
      open(withManifest(signed, short)),
      (e: unknown) =>
        e instanceof BundleContentError && /signature\.value must be an Ed25519 signature/.test((e as Error).message),
    );
  });
});

describe("a linked run's bundle edited", () => {
  const withEditedChild = (sign?: SigningKey) => withChild(signed, sign, editedRunJson);
  test("the parent resealed with its signature kept: refused", async () => {
    await assert.rejects(open(keepingSignature(await withEditedChild())), isSignature("manifest.json"));
  });
  test("both re-signed by the attacker: it names the attacker; under the owner's key, refused naming both", async () => {
    const forged = reseal(await withEditedChild(attacker), undefined, attacker);
    assert.equal((await open(forged)).signer?.fingerprint, attacker.fingerprint);
    await assert.rejects(open(forged, [owner.fingerprint]), wrongSigner(attacker.fingerprint));
  });
  test("a child signed by another key than its parent, or unsigned under a signed parent, or signed under an unsigned one: refused", async () => {
    const says = (text: string) => (e: unknown) =>
      isSignature(linkedMember())(e) && (e as Error).message.endsWith(`fails its signature check: ${text}`);
    await assert.rejects(
      open(reseal(await withEditedChild(attacker), undefined, owner)),
      says(`it is signed by ${attacker.fingerprint}, its parent by ${owner.fingerprint}`),
    );
    await assert.rejects(
      open(reseal(await withEditedChild(), undefined, owner)),
      says(`it is unsigned, its parent by ${owner.fingerprint}`),
    );
    await assert.rejects(
      open(reseal(await withEditedChild(owner))),
      says(`it is signed by ${owner.fingerprint}, its parent is unsigned`),
    );
    // Only the outer bundle is held to the signers required: its signer vouches for its linked runs.
    await assert.rejects(
      open(reseal(await withEditedChild(), undefined, owner), [owner.fingerprint]),
      isSignature(linkedMember()),
    );
    assert.equal(
      (await open(reseal(await withEditedChild(owner), undefined, owner))).linked[0].run.agent,
      "someone else",
      "the same key on both: accepted (the owner wrote it)",
    );
  });
});
