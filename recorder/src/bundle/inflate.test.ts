// MemberInflater: a zstd member is refused from its frame headers when it could inflate past its
// declared size or the reader's limits, and its output must be exactly the size declared.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { zstdCompress, ZSTD_MAX_BLOCK_BYTES } from "@harnessx/artifacts";
import { BundleChecksumError, BundleTooLargeError, DEFAULT_BUNDLE_LIMITS } from "../index.js";
import { MemberInflater } from "./inflate.js";

const PATH = "hand-made.tar";
const MiB = 1024 * 1024;
/** 1 MiB of one letter: its frame header states its size, so its bound is exactly 1 MiB. */
const mebibyte = () => zstdCompress(Buffer.alloc(MiB, 0x61));
const tooLarge = (bytes: number, limit: number) => (e: unknown) =>
  e instanceof BundleTooLargeError &&
  e.member === "m" &&
  e.bytes === bytes &&
  e.limit === limit &&
  new RegExp(
    `member "m" could decompress to ${bytes.toLocaleString("en-US")} bytes, more than the ${limit.toLocaleString("en-US")} allowed`,
  ).test(e.message);
const undecodable = (message: RegExp) => (e: unknown) =>
  e instanceof BundleChecksumError && e.member === "m" && message.test(e.message);

test("the default limits: 256 MiB a member, 1 GiB in all", () => {
  assert.deepEqual(DEFAULT_BUNDLE_LIMITS, { maxMemberBytes: 256 * MiB, maxTotalBytes: 1024 * MiB });
});

describe("check refuses from the headers alone", () => {
  test("a frame that could inflate past its declared size (plus one block per frame)", async () => {
    const frame = await mebibyte();
    const inflater = new MemberInflater(PATH, DEFAULT_BUNDLE_LIMITS);
    assert.throws(() => inflater.check("m", frame, 1000), tooLarge(MiB, 1000 + ZSTD_MAX_BLOCK_BYTES));
    assert.doesNotThrow(
      () => inflater.check("m", frame, MiB - ZSTD_MAX_BLOCK_BYTES),
      "the declared size and one block of slack",
    );
  });
  test("without a declared size, the member limit: the limit itself is taken, one byte less refuses", async () => {
    const frame = await mebibyte();
    assert.doesNotThrow(() =>
      new MemberInflater(PATH, { maxMemberBytes: MiB, maxTotalBytes: 4 * MiB }).check("m", frame, undefined),
    );
    assert.throws(
      () => new MemberInflater(PATH, { maxMemberBytes: MiB - 1, maxTotalBytes: 4 * MiB }).check("m", frame, undefined),
      tooLarge(MiB, MiB - 1),
    );
  });
  test("a declared size above the member limit does not raise it", async () => {
    const frame = await mebibyte();
    assert.throws(
      () => new MemberInflater(PATH, { maxMemberBytes: 1000, maxTotalBytes: 4 * MiB }).check("m", frame, 2 * MiB),
      tooLarge(MiB, 1000),
    );
  });
  test("bytes that are no zstd frame", () => {
    assert.throws(
      () => new MemberInflater(PATH, DEFAULT_BUNDLE_LIMITS).check("m", Buffer.from("garbage!garbage"), undefined),
      undecodable(
        /: member "m" fails verification: does not decompress \(not a zstd frame at offset 0 \(magic 0x62726167\)\) \(corrupt or tampered\)$/,
      ),
    );
  });
});

describe("inflate decodes within the limits and counts what it took", () => {
  test("the content, with or without a declared size", async () => {
    const frame = await zstdCompress(Buffer.from("0123456789"));
    const inflater = new MemberInflater(PATH, DEFAULT_BUNDLE_LIMITS);
    assert.equal((await inflater.inflate("m", frame, 10)).toString(), "0123456789");
    assert.equal((await inflater.inflate("m", frame, undefined)).toString(), "0123456789");
  });
  test("content of another size than declared is refused", async () => {
    const frame = await zstdCompress(Buffer.from("0123456789"));
    await assert.rejects(
      new MemberInflater(PATH, DEFAULT_BUNDLE_LIMITS).inflate("m", frame, 9),
      undecodable(/fails verification: decompresses to 10 bytes, the manifest says 9 \(corrupt or tampered\)$/),
    );
  });
  test("all members together stay within the total: the second mebibyte gets what the first left", async () => {
    const frame = await mebibyte();
    const inflater = new MemberInflater(PATH, { maxMemberBytes: 2 * MiB, maxTotalBytes: MiB + MiB / 2 });
    assert.equal((await inflater.inflate("m", frame, MiB)).byteLength, MiB);
    await assert.rejects(inflater.inflate("m", frame, MiB), tooLarge(MiB, MiB / 2));
  });
  test("a frame whose headers pass but whose data is damaged", async () => {
    const text = Buffer.from(Array.from({ length: 200 }, (_, i) => `line ${i * 7919} ${Math.sin(i)}\n`).join(""));
    const frame = Buffer.from(await zstdCompress(text));
    const damaged = frame.length - 10;
    frame[damaged] = (frame[damaged] ?? 0) ^ 0xff;
    await assert.rejects(
      new MemberInflater(PATH, DEFAULT_BUNDLE_LIMITS).inflate("m", frame, text.length),
      undecodable(/fails verification: does not decompress \(.*Data corruption detected\)/),
    );
  });
});
