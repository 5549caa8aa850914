import { ZstdCodec as ZstdCodecModule, type ZstdStreaming as Streaming } from "zstd-codec";
import { DEFAULT_ZSTD_LEVEL, ZstdError, type ZstdCodec } from "./codec.js";

/** zstd-codec aborts on large single buffers, so it is always fed slices of at most this many bytes. */
export const WASM_CHUNK_BYTES = 1024 * 1024;

let streamingReady: Promise<Streaming> | undefined;

function streaming(): Promise<Streaming> {
  streamingReady ??= new Promise((resolve) => ZstdCodecModule.run((zstd) => resolve(new zstd.Streaming())));
  return streamingReady;
}

function* chunksOf(data: Uint8Array): Generator<Uint8Array> {
  for (let offset = 0; offset < data.byteLength; offset += WASM_CHUNK_BYTES) {
    yield data.subarray(offset, Math.min(offset + WASM_CHUNK_BYTES, data.byteLength));
  }
}

/** The portable zstd (WebAssembly build of the reference library), used when the native module cannot load. */
export function loadWasmZstd(): ZstdCodec {
  return {
    implementation: "wasm",
    async compress(data, level = DEFAULT_ZSTD_LEVEL) {
      const codec = await streaming();
      const out = codec.compressChunks(chunksOf(data), Math.max(64, data.byteLength >> 2), level);
      if (!out) throw new ZstdError("zstd-codec failed to compress");
      return toBuffer(out);
    },
    async decompress(frame) {
      const codec = await streaming();
      const out =
        frame.byteLength === 0 ? null : codec.decompressChunks(chunksOf(frame), Math.max(64, frame.byteLength * 4));
      if (!out) throw new ZstdError("not a valid zstd frame (zstd-codec could not decode it)");
      return toBuffer(out);
    },
  };
}

function toBuffer(array: Uint8Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}
