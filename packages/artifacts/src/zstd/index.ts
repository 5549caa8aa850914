import { decompressWithin } from "./bounded.js";
import type { ZstdCodec } from "./codec.js";
import { loadNativeZstd } from "./native.js";
import { loadWasmZstd } from "./wasm.js";

export { ZstdError, ZstdLimitError, DEFAULT_ZSTD_LEVEL, type ZstdCodec, type ZstdImplementation } from "./codec.js";
export { contentBound, MAX_DECOMPRESSED_BYTES, ZSTD_MAX_BLOCK_BYTES, type ContentBound } from "./bounded.js";
export { loadNativeZstd } from "./native.js";
export { loadWasmZstd, WASM_CHUNK_BYTES } from "./wasm.js";

let selected: ZstdCodec | undefined;

/**
 * The process-wide zstd codec: native `@mongodb-js/zstd` when it loads, otherwise the
 * `zstd-codec` fallback. `HARNESSX_ZSTD=wasm` forces the fallback (tests, odd platforms).
 */
export function zstd(): ZstdCodec {
  if (selected) return selected;
  if (process.env.HARNESSX_ZSTD === "wasm") return (selected = loadWasmZstd());
  try {
    selected = loadNativeZstd();
  } catch {
    selected = loadWasmZstd();
  }
  return selected;
}

/** Compresses with the process-wide codec. */
export function zstdCompress(data: Uint8Array, level?: number): Promise<Buffer> {
  return zstd().compress(data, level);
}

/** Decompresses one zstd frame with the process-wide codec. Trusted data only: see `zstdDecompressWithin`. */
export function zstdDecompress(frame: Uint8Array): Promise<Buffer> {
  return zstd().decompress(frame);
}

/** Decompresses with the process-wide codec, refusing (`ZstdLimitError`) data that could exceed `limit` bytes. */
export function zstdDecompressWithin(data: Uint8Array, limit: number): Promise<Buffer> {
  return decompressWithin(zstd(), data, limit);
}
