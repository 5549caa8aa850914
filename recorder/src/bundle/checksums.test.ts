// verifyChecksums on member sets written by hand: the manifest, SHA256SUMS and the members must
// agree, and every member must be one the format has a place for.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { BundleChecksumError, BundleFormatError, BundleTruncatedError, type BundleManifest } from "../index.js";
import { verifyChecksums } from "./checksums.js";

const PATH = "hand-made.tar";
const sha256 = (data: Uint8Array | string): string => createHash("sha256").update(data).digest("hex");
const ARTIFACT = `artifacts/${sha256("payload")}.zst`;

interface Layout {
  /** Members after manifest.json, listed in the manifest unless in `unlisted`. */
  files: Record<string, string>;
  unlisted?: string[];
  linked?: string[];
  /** SHA256SUMS as written; default: correct lines for the manifest and every listed member. */
  sums?: (lines: string[]) => string;
  /** Edits the manifest's member list. */
  edit?: (members: BundleManifest["members"]) => void;
}

function check({ files, unlisted = [], linked, sums = (lines) => `${lines.join("\n")}\n`, edit }: Layout): string[] {
  const manifestBytes = Buffer.from("{}");
  const members = new Map<string, Buffer>([
    ["manifest.json", manifestBytes],
    ...Object.entries(files).map(([name, text]) => [name, Buffer.from(text)] as [string, Buffer]),
  ]);
  const listed = Object.keys(files)
    .filter((name) => !unlisted.includes(name))
    .map((path) => ({ path, bytes: members.get(path)!.byteLength, sha256: sha256(members.get(path)!) }));
  const lines = [`${sha256(manifestBytes)}  manifest.json`, ...listed.map((m) => `${m.sha256}  ${m.path}`)];
  edit?.(listed);
  members.set("SHA256SUMS", Buffer.from(sums(lines)));
  const manifest = {
    members: listed,
    ...(linked ? { linkedRuns: linked.map((member) => ({ runId: "child", member })) } : {}),
  } as unknown as BundleManifest;
  return verifyChecksums(PATH, manifest, members);
}

const base = { "run.json": "{}", "events.ndjson.zst": "events" };
const format = (message: RegExp) => (e: unknown) => e instanceof BundleFormatError && message.test(e.message);
const checksum = (member: string, message: RegExp) => (e: unknown) =>
  e instanceof BundleChecksumError &&
  e.code === "bundle_checksum_mismatch" &&
  e.member === member &&
  message.test(e.message);
const truncated = (message: RegExp) => (e: unknown) => e instanceof BundleTruncatedError && message.test(e.message);

describe("verifyChecksums", () => {
  test("a complete set returns the artifacts inside; a linked run's bundle named in linkedRuns is taken", () => {
    assert.deepEqual(
      check({ files: { ...base, [ARTIFACT]: "frame", "linked/child.tar": "tar" }, linked: ["linked/child.tar"] }),
      [sha256("payload")],
    );
  });

  test("members outside the format are refused, and the message lists the format's members", () => {
    const hex = sha256("payload");
    for (const name of [
      `x/artifacts/${hex}.zst`,
      `${ARTIFACT}.bak`,
      "x/linked/child.tar",
      "linked/child.tar.bak",
      "linked/unnamed.tar",
    ]) {
      const linked = name.includes("linked/child") ? [name] : [];
      assert.throws(
        () => check({ files: { ...base, [name]: "x" }, linked }),
        format(
          new RegExp(
            `member "${name.replaceAll(".", "\\.")}" is not part of the bundle format \\(manifest\\.json, run\\.json, events\\.ndjson\\.zst, SHA256SUMS, artifacts/<sha256>\\.zst, linked/<run>\\.tar named in linkedRuns\\)$`,
          ),
        ),
        name,
      );
    }
  });

  test("SHA256SUMS missing, or with a line that is not `<sha256>  <path>`", () => {
    const members = new Map([["manifest.json", Buffer.from("{}")]]);
    assert.throws(
      () => verifyChecksums(PATH, { members: [] } as unknown as BundleManifest, members),
      truncated(/: truncated or incomplete: SHA256SUMS is missing \(the bundle was cut short\)$/),
    );
    assert.throws(
      () => check({ files: base, sums: (lines) => [...lines, "garbage"].join("\n") }),
      checksum("SHA256SUMS", /fails verification: unreadable line "garbage" \(corrupt or tampered\)$/),
    );
    assert.throws(
      () => check({ files: base, sums: (lines) => lines.map((l, i) => (i === 1 ? `x${l}` : l)).join("\n") }),
      checksum("SHA256SUMS", /unreadable line "x[0-9a-f]{64} {2}run\.json"/),
    );
    assert.throws(
      () => check({ files: base, sums: (lines) => lines.map((l, i) => (i === 1 ? `${l}\u2028` : l)).join("\n") }),
      checksum("SHA256SUMS", /unreadable line/),
      "a line separator ends no path",
    );
    const long = "y".repeat(200);
    assert.throws(
      () => check({ files: base, sums: (lines) => [...lines, long].join("\n") }),
      checksum("SHA256SUMS", new RegExp(`unreadable line "${"y".repeat(80)}" \\(`)),
      "80 characters of it",
    );
  });

  test("the manifest's list: twice the same member, one missing, a size that differs", () => {
    assert.throws(
      () => check({ files: base, edit: (m) => m.push({ ...m[0]! }) }),
      format(/: member "run\.json" is listed twice in the manifest$/),
    );
    assert.throws(
      () => check({ files: base, edit: (m) => m.push({ path: "events.extra", bytes: 1, sha256: sha256("x") }) }),
      truncated(/: truncated or incomplete: member "events\.extra" listed in the manifest is missing$/),
    );
    assert.throws(
      () => check({ files: base, edit: (m) => (m[0]!.bytes = 3) }),
      checksum("run.json", /fails verification: 2 bytes, the manifest says 3 \(corrupt or tampered\)$/),
    );
  });

  test("a member in the tar the manifest does not list", () => {
    assert.throws(
      () => check({ files: { ...base, "notes.txt": "hello" }, unlisted: ["notes.txt"] }),
      format(/: member "notes\.txt" is not listed in the manifest$/),
    );
  });

  test("a linked run named in linkedRuns that is missing, or is not a linked/<run>.tar path", () => {
    assert.throws(
      () => check({ files: base, linked: ["linked/gone.tar"] }),
      format(/: linked run member "linked\/gone\.tar" is missing$/),
    );
    assert.throws(
      () => check({ files: base, linked: ["run.json"] }),
      format(/: linked run member "run\.json" is not a linked\/<run>\.tar path$/),
    );
  });

  test("run.json and the events are required", () => {
    for (const files of [{ "run.json": "{}" }, { "events.ndjson.zst": "events" }] as Array<Record<string, string>>) {
      assert.throws(() => check({ files }), format(/: run\.json and events\.ndjson\.zst are required members$/));
    }
  });
});
