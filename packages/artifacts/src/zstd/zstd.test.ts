import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadNativeZstd, loadWasmZstd, ZstdError, WASM_CHUNK_BYTES } from "./index.js";
import { hasCommand, tempDir } from "../../../../test/support/system.js";

const hasZstd = hasCommand("zstd");
const native = loadNativeZstd();
const wasm = loadWasmZstd();

// Compressible text with some noise, larger than several fallback chunks.
function sample(bytes: number): Buffer {
  const words = ["alpha", "beta", "gamma", "delta", randomBytes(6).toString("hex")];
  let text = "";
  while (text.length < bytes) text += `${words[text.length % words.length]} ${text.length % 977}\n`;
  return Buffer.from(text.slice(0, bytes));
}

describe("frames from each implementation decode with the other", () => {
  for (const [from, to] of [
    [native, wasm],
    [wasm, native],
  ] as const) {
    test(`${from.implementation} -> ${to.implementation}`, async () => {
      const data = sample(3 * WASM_CHUNK_BYTES + 12345);
      const frame = await from.compress(data);
      assert.ok(frame.length < data.length / 2, "compresses");
      assert.ok((await to.decompress(frame)).equals(data));
    });
  }
  test("empty input round-trips", async () => {
    assert.equal((await wasm.decompress(await native.compress(Buffer.alloc(0)))).length, 0);
    assert.equal((await native.decompress(await wasm.compress(Buffer.alloc(0)))).length, 0);
  });
});

describe("frames decode with the zstd command and the command's frames decode here", () => {
  test("round trip through the zstd binary", { skip: !hasZstd && "zstd command not installed" }, async () => {
    const { dir, cleanup } = tempDir();
    try {
      const data = sample(2 * WASM_CHUNK_BYTES + 7);
      for (const codec of [native, wasm]) {
        const file = join(dir, `${codec.implementation}.zst`);
        writeFileSync(file, await codec.compress(data));
        const out = spawnSync("zstd", ["-d", "-c", file], { maxBuffer: 64 * 1024 * 1024 });
        assert.equal(out.status, 0, String(out.stderr));
        assert.ok(out.stdout.equals(data), `${codec.implementation} frame decoded by zstd`);
      }
      writeFileSync(join(dir, "plain"), data);
      assert.equal(spawnSync("zstd", ["-q", "-f", join(dir, "plain")]).status, 0);
      const cli = readFileSync(join(dir, "plain.zst"));
      assert.ok((await native.decompress(cli)).equals(data));
      assert.ok((await wasm.decompress(cli)).equals(data));
    } finally {
      cleanup();
    }
  });
});

describe("garbage is refused with a typed error", () => {
  for (const codec of [native, wasm]) {
    test(codec.implementation, async () => {
      await assert.rejects(codec.decompress(Buffer.from("definitely not zstd")), ZstdError);
    });
  }
});
