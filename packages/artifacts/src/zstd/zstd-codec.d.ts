// Minimal typing of the parts of zstd-codec (no published types) that the fallback uses.
declare module "zstd-codec" {
  export interface ZstdStreaming {
    compressChunks(chunks: Iterable<Uint8Array>, sizeHint: number, level: number): Uint8Array | null;
    decompressChunks(chunks: Iterable<Uint8Array>, sizeHint: number): Uint8Array | null;
  }
  export interface ZstdModule {
    Streaming: new () => ZstdStreaming;
  }
  export const ZstdCodec: { run(callback: (zstd: ZstdModule) => void): void };
}
