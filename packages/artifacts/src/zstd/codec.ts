import { HarnessError } from "@harnessx/core";

/** Which implementation encodes and decodes: the native binding or the portable WebAssembly fallback. */
export type ZstdImplementation = "native" | "wasm";

/** A zstd encoder/decoder. Frames from either implementation decode with the other and with the `zstd` command. */
export interface ZstdCodec {
  /** Which implementation this codec uses. */
  readonly implementation: ZstdImplementation;
  /** Compresses `data` into one zstd frame at `level` (default `DEFAULT_ZSTD_LEVEL`, 3). */
  compress(data: Uint8Array, level?: number): Promise<Buffer>;
  /** Decodes zstd data with no size limit; throws `ZstdError` when it is not valid zstd. Trusted input only. */
  decompress(frame: Uint8Array): Promise<Buffer>;
}

/** Input that is not a valid zstd frame, or a codec that failed to produce output. */
export class ZstdError extends HarnessError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("zstd_error", message, options);
  }
}

/** Data that would decompress to more bytes than the reader allows (a compression bomb, or a size lie). */
export class ZstdLimitError extends ZstdError {
  constructor(
    /** Bytes the data could (or did) decompress to. */
    readonly bytes: number,
    /** The most bytes the reader allowed. */
    readonly limit: number,
  ) {
    super(`could decompress to ${bytes} bytes, more than the limit of ${limit}`);
  }
}

/** Level 3 is zstd's own default: fast, and already well ahead of gzip in ratio. */
export const DEFAULT_ZSTD_LEVEL = 3;
