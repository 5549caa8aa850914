// Compression bombs for tests: real zstd output of a long run of one byte.
import { spawnSync } from "node:child_process";
import { zstdCompress } from "../zstd/index.js";
import { hasCommand } from "../../../../test/support/system.js";

const hasZstd = hasCommand("zstd");
const made = new Map<number, Buffer>();

/**
 * zstd data that decompresses to `bytes` zero bytes: one frame written by the `zstd` command
 * (streamed, so the test never holds the plain bytes), or, without the command, frames of
 * 16 MiB from the native codec, concatenated (a valid zstd stream that `zstd -d` also reads).
 */
export async function zstdBomb(bytes: number): Promise<Buffer> {
  const cached = made.get(bytes);
  if (cached) return cached;
  let bomb: Buffer;
  if (hasZstd) {
    const out = spawnSync("sh", ["-c", `head -c ${bytes} /dev/zero | zstd -q -3 -c`], { maxBuffer: 64 * 1024 * 1024 });
    if (out.status !== 0) throw new Error(`zstd failed: ${String(out.stderr)}`);
    bomb = out.stdout;
  } else {
    const piece = 16 * 1024 * 1024;
    const frame = await zstdCompress(Buffer.alloc(piece));
    const tail = await zstdCompress(Buffer.alloc(bytes % piece));
    bomb = Buffer.concat([...Array.from({ length: Math.floor(bytes / piece) }, () => frame), tail]);
  }
  made.set(bytes, bomb);
  return bomb;
}
