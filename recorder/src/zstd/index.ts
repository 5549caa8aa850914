import type { ZstdCodec } from "./codec.js";
import { loadNativeZstd } from "./native.js";
import { loadWasmZstd } from "./wasm.js";

export { ZstdError, DEFAULT_ZSTD_LEVEL, type ZstdCodec, type ZstdImplementation } from "./codec.js";
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

/** Decompresses one zstd frame with the process-wide codec. */
export function zstdDecompress(frame: Uint8Array): Promise<Buffer> {
  return zstd().decompress(frame);
}
