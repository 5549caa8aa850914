import { createRequire } from "node:module";
import { DEFAULT_ZSTD_LEVEL, ZstdError, type ZstdCodec } from "./codec.js";

interface NativeBinding {
  compress(data: Buffer, level?: number | null): Promise<Buffer>;
  decompress(data: Buffer): Promise<Buffer>;
}

/** Loads `@mongodb-js/zstd` (native); throws when the binary cannot load on this platform. */
export function loadNativeZstd(): ZstdCodec {
  const binding = createRequire(import.meta.url)("@mongodb-js/zstd") as NativeBinding;
  return {
    implementation: "native",
    async compress(data, level = DEFAULT_ZSTD_LEVEL) {
      return binding.compress(asBuffer(data), level);
    },
    async decompress(frame) {
      try {
        return await binding.decompress(asBuffer(frame));
      } catch (error) {
        throw new ZstdError(`not a valid zstd frame: ${(error as Error).message}`, { cause: error });
      }
    },
  };
}

function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}
