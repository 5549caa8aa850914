import { ZstdError, ZstdLimitError, type ZstdCodec } from "./codec.js";

/** The most a reader decompresses from one frame (member, segment, artifact) unless told otherwise. */
export const MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024;

/** The largest block the zstd format allows (RFC 8878 Block_Maximum_Size). */
export const ZSTD_MAX_BLOCK_BYTES = 128 * 1024;

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;

/** What a frame's headers say about its output, read without decoding it. */
export interface ContentBound {
  /** No frame can decode to more bytes than this. */
  bytes: number;
  /** Standard zstd frames found (skippable frames not counted); at least 1. */
  frames: number;
}

function need(data: Uint8Array, at: number, count: number): void {
  if (at + count > data.byteLength)
    throw new ZstdError(`truncated zstd data: ${count} byte(s) needed at offset ${at}, ${data.byteLength - at} left`);
}

function readLE(data: Uint8Array, at: number, count: number): number {
  let value = 0;
  for (let i = count - 1; i >= 0; i--) value = value * 256 + data[at + i];
  return value;
}

/** Walks one standard frame starting after its magic; returns where it ends and its output bound. */
function walkFrame(data: Uint8Array, start: number): { end: number; bytes: number } {
  let at = start;
  need(data, at, 1);
  const descriptor = data[at++];
  if (descriptor & 0x08) throw new ZstdError(`invalid zstd frame header at offset ${start}: reserved bit set`);
  const singleSegment = (descriptor >> 5) & 1;
  const contentSizeBytes = [singleSegment, 2, 4, 8][descriptor >> 6];
  let windowBytes = Number.POSITIVE_INFINITY;
  if (!singleSegment) {
    need(data, at, 1);
    const exponent = data[at] >> 3;
    const base = 2 ** (10 + exponent);
    windowBytes = base + (base / 8) * (data[at] & 7);
    at++;
  }
  at += [0, 1, 2, 4][descriptor & 3];
  need(data, at, contentSizeBytes);
  if (singleSegment) windowBytes = readLE(data, at, contentSizeBytes) + (contentSizeBytes === 2 ? 256 : 0);
  at += contentSizeBytes;
  // A compressed block decodes to at most Block_Maximum_Size; raw and RLE blocks state their size.
  const blockMax = Math.min(windowBytes, ZSTD_MAX_BLOCK_BYTES);
  let bytes = 0;
  for (;;) {
    need(data, at, 3);
    const header = readLE(data, at, 3);
    at += 3;
    const type = (header >> 1) & 3;
    const size = header >>> 3;
    if (type === 3) throw new ZstdError(`invalid zstd block at offset ${at - 3}: reserved block type`);
    if (size > ZSTD_MAX_BLOCK_BYTES)
      throw new ZstdError(`invalid zstd block at offset ${at - 3}: ${size} bytes, more than the format allows`);
    const stored = type === 1 ? 1 : size;
    need(data, at, stored);
    at += stored;
    bytes += type === 2 ? blockMax : size;
    if (header & 1) break;
  }
  if (descriptor & 0x04) {
    need(data, at, 4);
    at += 4;
  }
  return { end: at, bytes };
}

/**
 * The most the zstd data can decode to, from its frame and block headers alone: cheap (no
 * decoding), so a bomb is refused before a byte of it is inflated. Throws `ZstdError` when the
 * headers are malformed or cut short.
 */
export function contentBound(data: Uint8Array): ContentBound {
  if (data.byteLength === 0) throw new ZstdError("empty input: no zstd frame");
  let at = 0;
  let bytes = 0;
  let frames = 0;
  while (at < data.byteLength) {
    need(data, at, 4);
    const magic = readLE(data, at, 4);
    if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      need(data, at + 4, 4);
      const size = readLE(data, at + 4, 4);
      need(data, at + 8, size);
      at += 8 + size;
      continue;
    }
    if (magic !== FRAME_MAGIC) throw new ZstdError(`not a zstd frame at offset ${at} (magic 0x${magic.toString(16)})`);
    const frame = walkFrame(data, at + 4);
    at = frame.end;
    bytes += frame.bytes;
    frames++;
  }
  if (frames === 0) throw new ZstdError("no zstd frame, only skippable frames");
  return { bytes, frames };
}

/**
 * Decompresses only when the data cannot decode to more than `limit` bytes. The native binding
 * decodes in one call (it has no streaming API), so the limit is enforced before decoding from
 * the headers, and checked again on the output in case a decoder let a block run past the
 * format's maximum. Throws `ZstdLimitError` over the limit, `ZstdError` for invalid data.
 */
export async function decompressWithin(codec: ZstdCodec, data: Uint8Array, limit: number): Promise<Buffer> {
  const bound = contentBound(data);
  if (bound.bytes > limit) throw new ZstdLimitError(bound.bytes, limit);
  const out = await codec.decompress(data);
  if (out.byteLength > limit) throw new ZstdLimitError(out.byteLength, limit);
  return out;
}
