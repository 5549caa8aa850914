import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import {
  contentBound,
  loadNativeZstd,
  loadWasmZstd,
  ZstdError,
  ZstdLimitError,
  ZSTD_MAX_BLOCK_BYTES,
  zstdDecompressWithin,
} from "./index.js";
import { zstdBomb } from "../test-support/bombs.js";

const codecs = [loadNativeZstd(), loadWasmZstd()];

function text(bytes: number): Buffer {
  let out = "";
  while (out.length < bytes)
    out += `{"seq":${out.length},"kind":"tool_call_end","note":"${randomBytes(4).toString("hex")}"}\n`;
  return Buffer.from(out.slice(0, bytes));
}

/** A frame of hand-written blocks: `[type, size]` with type 0 raw, 1 RLE. */
function handMadeFrame(blocks: Array<[0 | 1, number]>): Buffer {
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58])]; // no content size, 2 MiB window
  blocks.forEach(([type, size], i) => {
    const header = Buffer.alloc(3);
    header.writeUIntLE((size << 3) | (type << 1) | (i === blocks.length - 1 ? 1 : 0), 0, 3);
    parts.push(header, type === 1 ? Buffer.from([0x61]) : Buffer.alloc(size, 0x62));
  });
  return Buffer.concat(parts);
}

describe("contentBound reads the most a frame can decode to from its headers", () => {
  for (const codec of codecs) {
    test(`${codec.implementation} frames: never below the content, at most one block above`, async () => {
      for (const size of [1, 1000, 200_000, 3 * 1024 * 1024 + 17]) {
        const bound = contentBound(await codec.compress(text(size)));
        assert.ok(bound.bytes >= size && bound.bytes <= size + ZSTD_MAX_BLOCK_BYTES, `${size}: bound ${bound.bytes}`);
      }
    });
  }
  test("raw and RLE blocks count exactly; concatenated and skippable frames are walked", async () => {
    const frame = handMadeFrame([
      [1, 100_000],
      [0, 10],
      [1, 5],
    ]);
    assert.deepEqual(contentBound(frame), { bytes: 100_015, frames: 1 });
    for (const codec of codecs)
      assert.equal(
        (await codec.decompress(frame)).toString(),
        `${"a".repeat(100_000)}${"b".repeat(10)}aaaaa`,
        codec.implementation,
      );
    const skippable = Buffer.concat([Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0]), Buffer.from("abc")]);
    assert.deepEqual(contentBound(Buffer.concat([frame, skippable, frame])), { bytes: 200_030, frames: 2 });
  });
  test("a bomb's bound is its real size", async () => {
    const bomb = await zstdBomb(300 * 1024 * 1024);
    assert.ok(bomb.byteLength < 100_000, `the bomb is ${bomb.byteLength} bytes`);
    assert.ok(contentBound(bomb).bytes >= 300 * 1024 * 1024);
  });
  test("malformed headers are a ZstdError, never another exception", () => {
    const good = handMadeFrame([[0, 10]]);
    for (const bad of [
      Buffer.alloc(0),
      Buffer.from("not zstd"),
      good.subarray(0, good.length - 1),
      good.subarray(0, 5),
      Buffer.concat([good, Buffer.from([1, 2])]),
      handMadeFrame([[0, ZSTD_MAX_BLOCK_BYTES + 1]]),
    ]) {
      assert.throws(() => contentBound(bad), ZstdError, bad.toString("hex").slice(0, 40));
    }
    const reserved = Buffer.from(good);
    reserved[6]! |= 0b110;
    assert.throws(() => contentBound(reserved), /reserved block type/);
  });
});

describe("zstdDecompressWithin refuses what could exceed the limit before decoding it", () => {
  test("a 1.2 GB bomb is refused at once with the bound and the limit", async () => {
    const bomb = await zstdBomb(1_200_000_000);
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    await assert.rejects(
      zstdDecompressWithin(bomb, 1024 * 1024),
      (e: unknown) => e instanceof ZstdLimitError && e.limit === 1024 * 1024 && e.bytes >= 1_200_000_000,
    );
    assert.ok(performance.now() - started < 1000, "not decoded");
    assert.ok(process.memoryUsage().rss - rss < 64 * 1024 * 1024, "nothing inflated");
  });
  test("data within the limit decodes", async () => {
    const data = text(500_000);
    const frame = await codecs[0]!.compress(data);
    assert.ok((await zstdDecompressWithin(frame, data.length + ZSTD_MAX_BLOCK_BYTES)).equals(data));
    await assert.rejects(zstdDecompressWithin(frame, data.length - 1), ZstdLimitError);
  });
});
