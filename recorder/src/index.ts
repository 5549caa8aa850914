export { ArtifactStore, isArtifactId, sha256Hex, type StoredArtifact } from "./artifacts/artifact-store.js";
export { ArtifactNotFoundError, ArtifactCorruptError } from "./artifacts/errors.js";
export { zstd, zstdCompress, zstdDecompress, loadNativeZstd, loadWasmZstd, ZstdError, DEFAULT_ZSTD_LEVEL, WASM_CHUNK_BYTES, type ZstdCodec, type ZstdImplementation } from "./zstd/index.js";
