// Reading a bundle's tar: every member is judged by its header before a byte of its data is read,
// so tars written by hand here lie about sizes, types and paths, or stop early.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  BundleFormatError,
  BundleTooLargeError,
  BundleTruncatedError,
  BundleUnsafePathError,
  MAX_BUNDLE_MANIFEST_BYTES,
  MAX_RUN_MANIFEST_BYTES,
  MAX_SUMS_BYTES,
} from "../index.js";
import { DEFAULT_BUNDLE_LIMITS } from "./inflate.js";
import { checkMemberPath, readMembers } from "./tar-members.js";
import { tarOf, ustarHeader } from "../test-support/bundle-surgery.js";
import { tempDir } from "../../../test/support/system.js";

const PATH = "hand-made.tar";
const file = (name: string, text: string) => ({ name, data: Buffer.from(text) });
const manifest = file("manifest.json", "{}");
/** A tar of `members`, then `tail` (headers that lie, with or without data). */
const tarWith = async (members: Array<{ name: string; data: Buffer }>, ...tail: Buffer[]) =>
  Buffer.concat([(await tarOf(members)).subarray(0, -1024), ...tail, Buffer.alloc(1024)]);
const read = (data: Buffer, limits = DEFAULT_BUNDLE_LIMITS) => readMembers(PATH, limits, data);

const unsafe = (name: string, detail: RegExp) => (e: unknown) =>
  e instanceof BundleUnsafePathError && e.code === "bundle_unsafe_path" && e.member === name && detail.test(e.message);
const format = (message: RegExp) => (e: unknown) =>
  e instanceof BundleFormatError && e.code === "bundle_format" && message.test(e.message);
const tooLarge = (member: string, bytes: number, limit: number, message: RegExp) => (e: unknown) =>
  e instanceof BundleTooLargeError &&
  e.member === member &&
  e.bytes === bytes &&
  e.limit === limit &&
  message.test(e.message);

describe("member paths", () => {
  for (const [name, detail] of [
    ["", /: empty or NUL in the name$/],
    ["a\0b", /: empty or NUL in the name$/],
    ["/etc/passwd", /: absolute or Windows-style path$/],
    ["C:evil", /: absolute or Windows-style path$/],
    ["a\\b", /: absolute or Windows-style path$/],
    ["../escape", /: a '\.\.' segment escapes the bundle folder$/],
    ["artifacts/../../x", /: a '\.\.' segment escapes the bundle folder$/],
    ["./manifest.json", /: not a normalized relative path$/],
    ["a//b", /: not a normalized relative path$/],
    ["a/./b", /: not a normalized relative path$/],
  ] as const) {
    test(`${JSON.stringify(name)} is refused`, () =>
      assert.throws(() => checkMemberPath(PATH, name), unsafe(name, detail)));
  }
  test("a colon elsewhere than after a leading drive letter is a plain name", () => {
    for (const name of ["run:1", "1:x", "x/C:y", "artifacts/a:b.zst"])
      assert.doesNotThrow(() => checkMemberPath(PATH, name), name);
  });
});

describe("readMembers judges each header before reading its data", () => {
  test("a member's stored size: the limit itself is taken, one byte more is refused", async () => {
    const limits = { maxMemberBytes: 10, maxTotalBytes: 1000 };
    const members = await read(await tarOf([manifest, file("run.json", "0123456789")]), limits);
    assert.deepEqual([...members.keys()], ["manifest.json", "run.json"]);
    await assert.rejects(
      read(await tarOf([manifest, file("run.json", "0123456789x")]), limits),
      tooLarge(
        "run.json",
        11,
        10,
        /member "run\.json" is stored as 11 bytes, more than the 10 allowed; refused \(a compression bomb, or a size that lies\)$/,
      ),
    );
  });
  test("the members' total: the limit itself is taken, one byte more is refused naming the member that passes it", async () => {
    const limits = { maxMemberBytes: 100, maxTotalBytes: 12 };
    assert.equal((await read(await tarOf([manifest, file("run.json", "0123456789")]), limits)).size, 2);
    await assert.rejects(
      read(await tarOf([manifest, file("run.json", "0123456789"), file("SHA256SUMS", "x")]), limits),
      tooLarge("SHA256SUMS", 13, 12, /member "SHA256SUMS" brings the bundle to 13 bytes, more than the 12 allowed/),
    );
  });
  test("a header claiming more than the limits is refused before its data (none follows)", async () => {
    const size = 300 * 1024 * 1024;
    await assert.rejects(
      read(await tarWith([manifest], ustarHeader("events.ndjson.zst", size))),
      tooLarge("events.ndjson.zst", size, DEFAULT_BUNDLE_LIMITS.maxMemberBytes, /is stored as 314,572,800 bytes/),
    );
  });
  for (const [name, limit] of [
    ["manifest.json", MAX_BUNDLE_MANIFEST_BYTES],
    ["run.json", MAX_RUN_MANIFEST_BYTES],
    ["SHA256SUMS", MAX_SUMS_BYTES],
  ] as const) {
    test(`${name} has its own, smaller limit: one byte over is refused unread, the limit itself is read (and found cut short)`, async () => {
      const before = name === "manifest.json" ? [] : [manifest];
      const refusal = tooLarge(
        name,
        limit + 1,
        limit,
        / is stored as [\d,]+ bytes, more than the [\d,]+ allowed; refused unread \(the exporter never writes one this large\)$/,
      );
      await assert.rejects(read(await tarWith(before, ustarHeader(name, limit + 1))), refusal);
      await assert.rejects(read(await tarWith(before, ustarHeader(name, limit))), BundleTruncatedError);
    });
  }
  test("other members are held to the member limit only", async () => {
    await assert.rejects(
      read(await tarWith([manifest], ustarHeader("events.ndjson.zst", MAX_BUNDLE_MANIFEST_BYTES + 1))),
      BundleTruncatedError,
    );
  });
  test("the manifest comes first, and no member twice", async () => {
    await assert.rejects(
      read(await tarOf([file("run.json", "{}"), manifest])),
      format(/: the first member is "run\.json", expected manifest\.json$/),
    );
    await assert.rejects(
      read(await tarOf([manifest, file("run.json", "{}"), file("run.json", "{}")])),
      format(/: member "run\.json" appears twice$/),
    );
  });
  test("links and other special entries are refused, named by their type", async () => {
    await assert.rejects(
      read(await tarOf([manifest, { name: "link", data: Buffer.alloc(0), type: "symlink" }])),
      unsafe("link", /: a symlink entry, not a regular file$/),
    );
    await assert.rejects(
      read(await tarWith([manifest], ustarHeader("pipe", 0, "6"))),
      unsafe("pipe", /: a fifo entry, not a regular file$/),
    );
    await assert.rejects(
      read(await tarWith([manifest], ustarHeader("odd", 0, "Z"))),
      unsafe("odd", /: a special entry, not a regular file$/),
    );
  });
  test("more than 100,000 members is refused (one more than the limit)", async () => {
    const count = 100_001;
    const tar = Buffer.alloc((count + 2) * 512);
    ustarHeader("manifest.json", 0).copy(tar, 0);
    for (let i = 1; i < count; i++) ustarHeader(`m/${i}`, 0).copy(tar, i * 512);
    await assert.rejects(read(tar), format(/: more than 100000 members$/));
  });
  test("an archive without members, one cut short, and one that is no tar", async () => {
    await assert.rejects(
      read(Buffer.alloc(1024)),
      (e: unknown) =>
        e instanceof BundleTruncatedError &&
        e.code === "bundle_truncated" &&
        /: truncated or incomplete: the archive holds no members$/.test(e.message),
    );
    await assert.rejects(
      read(Buffer.concat([ustarHeader("manifest.json", 100), Buffer.from("0123456789")])),
      (e: unknown) =>
        e instanceof BundleTruncatedError &&
        /truncated or incomplete: Unexpected end of data$/.test(e.message) &&
        e.cause instanceof Error,
    );
    await assert.rejects(
      read(Buffer.from("this is not a tar file at all, just text ".repeat(40))),
      (e: unknown) =>
        format(
          /: not a readable tar archive \(Invalid tar header\. Maybe the tar is corrupted or it needs to be gunzipped\?\)$/,
        )(e) && (e as Error).cause instanceof Error,
    );
  });
});

describe("the bundle file", () => {
  let dir: string;
  let cleanup: () => void;
  let bundle: string;
  before(async () => {
    ({ dir, cleanup } = tempDir());
    bundle = join(dir, "b.tar");
    writeFileSync(bundle, await tarOf([manifest, file("run.json", "{}")]));
  });
  after(() => cleanup());

  test("a link the user named is followed to the bundle", async () => {
    const link = join(dir, "link.tar");
    symlinkSync(bundle, link);
    assert.deepEqual([...(await readMembers(link, DEFAULT_BUNDLE_LIMITS)).keys()], ["manifest.json", "run.json"]);
  });
  test("a folder is refused unread, a missing file is not found, a path through a file cannot be opened", async () => {
    const folder = join(dir, "folder.tar");
    mkdirSync(folder);
    await assert.rejects(
      readMembers(folder, DEFAULT_BUNDLE_LIMITS),
      format(/folder\.tar: not a regular file \(a FIFO, device or directory\): refused unread$/),
    );
    await assert.rejects(
      readMembers(join(dir, "missing.tar"), DEFAULT_BUNDLE_LIMITS),
      (e: unknown) =>
        format(/missing\.tar: file not found$/)(e) && (e as { cause?: { code?: string } }).cause?.code === "ENOENT",
    );
    await assert.rejects(
      readMembers(join(bundle, "x.tar"), DEFAULT_BUNDLE_LIMITS),
      (e: unknown) =>
        format(/x\.tar: cannot be opened \(ENOTDIR\)$/)(e) &&
        (e as { cause?: { code?: string } }).cause?.code === "ENOTDIR",
    );
  });
  test("a file that fails while it is read is refused with the error", {
    skip: process.platform !== "linux" && "needs /proc",
  }, async () => {
    // Reading /proc/self/mem at offset 0 fails with EIO: the stream's error must end the read.
    await assert.rejects(
      readMembers("/proc/self/mem", DEFAULT_BUNDLE_LIMITS),
      (e: unknown) =>
        format(/: not a readable tar archive \(EIO: i\/o error, read\)$/)(e) &&
        (e as { cause?: { code?: string } }).cause?.code === "EIO",
    );
  });
});
