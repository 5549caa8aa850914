// Stored content shared by the built-ins: the content-addressed artifact store, the zstd codec, whole-or-nothing file writes.
export { ArtifactStore, isArtifactId, sha256Hex, type StoredArtifact } from "./artifact-store.js";
export { ArtifactNotFoundError, ArtifactCorruptError } from "./errors.js";
export { writeFileAtomically } from "./write-atomically.js";
export {
  zstd,
  zstdCompress,
  zstdDecompress,
  zstdDecompressWithin,
  contentBound,
  loadNativeZstd,
  loadWasmZstd,
  ZstdError,
  ZstdLimitError,
  DEFAULT_ZSTD_LEVEL,
  WASM_CHUNK_BYTES,
  MAX_DECOMPRESSED_BYTES,
  ZSTD_MAX_BLOCK_BYTES,
  type ContentBound,
  type ZstdCodec,
  type ZstdImplementation,
} from "./zstd/index.js";
