import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { HarnessError } from "@harnessx/core";
import { readRegularFile, RefusedFileError } from "@harnessx/core/extension";
import type { RecordedEvent, SealedSegmentInfo } from "../format/event.js";
import { segmentIndexOf, segmentsDirOf } from "../format/layout.js";
import { RequestRebuilder } from "../format/request-rebuilder.js";
import { SEALED_SEGMENT_SCHEMA, parseChecked } from "../format/validate.js";
import { completeLines } from "../recording/seal.js";
import { contentBound, MAX_DECOMPRESSED_BYTES, ZSTD_MAX_BLOCK_BYTES, zstdDecompressWithin } from "@harnessx/artifacts";
import { eventLineRanges, eventLines, type BadLine, type SkipPayloads } from "./event-lines.js";
import { EventLineTooLongError, MAX_METADATA_FILE_BYTES } from "../format/read-limits.js";

/**
 * A sealed segment whose bytes no longer match the checksum written when it was sealed (or that
 * does not decode within its declared size). Thrown while reading; the file is damaged and its
 * events cannot be trusted: restore it from a copy or an incident bundle.
 */
export class SegmentCorruptError extends HarnessError {
  constructor(
    /** Path of the damaged segment file. */
    readonly path: string,
    detail: string,
  ) {
    super("segment_corrupt", `segment ${path} is corrupt: ${detail}`);
  }
}

/** One segment as a reader found it. */
export interface SegmentFile {
  /** Segment number from its file name (`000001.ndjson` is 1), in write order. */
  index: number;
  /** The file read: `<n>.ndjson.zst` when sealed, else the plain `<n>.ndjson` still being written. */
  path: string;
  /** True for the zstd file sealed when the segment was full or old enough. */
  sealed: boolean;
  /** The sealed checksum sidecar, when the segment is sealed. */
  info?: SealedSegmentInfo;
}

/** Options of `readRun` and `iterateRunEvents`. */
export interface ReadRunOptions {
  /** Put back the messages, system prompt and tools left out of LLM_REQUEST events. Default false. */
  fullRequests?: boolean;
  /** Also return the NDJSON text as read (complete lines only), e.g. to copy it without re-serializing. */
  keepText?: boolean;
}

/** The run's segments in order: sealed where a verified seal exists, else the plain file. */
export async function listSegments(runDir: string): Promise<SegmentFile[]> {
  const dir = segmentsDirOf(runDir);
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const byIndex = new Map<number, SegmentFile>();
  for (const entry of entries) {
    const index = segmentIndexOf(entry.name);
    if (index === undefined || !entry.isFile()) continue;
    const path = join(dir, entry.name);
    const current = byIndex.get(index);
    if (entry.name.endsWith(".zst")) {
      const info = await readSealedInfo(path);
      // A seal without its sidecar was interrupted; the plain file (still there) is authoritative.
      if (info) byIndex.set(index, { index, path, sealed: true, info });
      else if (!current) byIndex.set(index, { index, path, sealed: true });
    } else if (!current?.info) {
      byIndex.set(index, { index, path, sealed: false });
    }
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** A sealed segment's sidecar; undefined when missing, torn or of another shape (as if never written). */
async function readSealedInfo(sealedPath: string): Promise<SealedSegmentInfo | undefined> {
  // Anything but a small regular file (a FIFO, a link, a huge file) is as good as no sidecar.
  const bytes = await readRegularFile(`${sealedPath}.sha256`, { maxBytes: MAX_METADATA_FILE_BYTES }).catch(
    () => undefined,
  );
  if (bytes === undefined) return undefined;
  const parsed = parseChecked<SealedSegmentInfo>(bytes.toString("utf8"), SEALED_SEGMENT_SCHEMA);
  return "value" in parsed ? parsed.value : undefined;
}

/** The most a sealed segment may decode to: what its sidecar says (plus the last block's slack), within the reader's ceiling. */
function sealedLimit(segment: SegmentFile): number {
  return segment.info
    ? Math.min(segment.info.bytes + ZSTD_MAX_BLOCK_BYTES, MAX_DECOMPRESSED_BYTES)
    : MAX_DECOMPRESSED_BYTES;
}

/**
 * Reads a sealed segment's bytes and checks them before anything decodes them: the sha256 its
 * sidecar recorded, and that its frame cannot inflate past the size the sidecar declares (or the
 * reader's ceiling). DuckDB readers call this too, then read the file themselves.
 */
export async function verifySealedSegment(segment: SegmentFile): Promise<Buffer> {
  const raw = await readSegmentFile(segment);
  if (segment.info && createHash("sha256").update(raw).digest("hex") !== segment.info.sha256) {
    throw new SegmentCorruptError(segment.path, "its sha256 differs from the one recorded when it was sealed");
  }
  let bound: number;
  try {
    bound = contentBound(raw).bytes;
  } catch (error) {
    throw new SegmentCorruptError(segment.path, `its zstd frame does not decode (${(error as Error).message})`);
  }
  if (bound > sealedLimit(segment))
    throw new SegmentCorruptError(
      segment.path,
      `its zstd frame could decode to ${bound} bytes, more than ${sealedLimit(segment)} (a compression bomb, or a sidecar that lies)`,
    );
  return raw;
}

/** A segment file's bytes as stored: a regular file within the reader's ceiling, else `SegmentCorruptError` (ENOENT passes through). */
export async function readSegmentFile(segment: Pick<SegmentFile, "path">): Promise<Buffer> {
  try {
    return await readRegularFile(segment.path, { maxBytes: MAX_DECOMPRESSED_BYTES, what: "the segment" });
  } catch (error) {
    if (error instanceof RefusedFileError)
      throw new SegmentCorruptError(
        segment.path,
        error.problem === "too_large"
          ? `more than a reader takes (${MAX_DECOMPRESSED_BYTES} bytes)`
          : "not a regular file (a FIFO, device or link where a segment should be)",
      );
    throw error;
  }
}

/** The complete NDJSON lines of one segment: verified and decompressed when sealed, torn last line cut when plain. */
async function readSegmentBytes(segment: SegmentFile): Promise<{ bytes: Buffer; tornBytes: number }> {
  if (segment.sealed) return { bytes: await inflateSealed(segment), tornBytes: 0 };
  let raw: Buffer;
  try {
    raw = await readSegmentFile(segment);
  } catch (error) {
    // Sealed by its recorder since it was listed (the plain file goes once the sealed copy is in place).
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    const sealed = `${segment.path}.zst`;
    return {
      bytes: await inflateSealed({ ...segment, path: sealed, sealed: true, info: await readSealedInfo(sealed) }),
      tornBytes: 0,
    };
  }
  const { complete, tornBytes } = completeLines(raw);
  return { bytes: complete, tornBytes };
}

/** A sealed segment's complete lines, verified against its sidecar and decompressed within its declared size. */
export async function inflateSealed(segment: SegmentFile): Promise<Buffer> {
  const raw = await verifySealedSegment(segment);
  const bytes = await zstdDecompressWithin(raw, sealedLimit(segment)).catch((error: unknown) => {
    throw new SegmentCorruptError(segment.path, `its zstd frame does not decode (${(error as Error).message})`);
  });
  if (segment.info && bytes.byteLength !== segment.info.bytes)
    throw new SegmentCorruptError(
      segment.path,
      `it decodes to ${bytes.byteLength} bytes, its sidecar says ${segment.info.bytes}`,
    );
  return bytes;
}

/** What a reader had to cut or skip, added up segment by segment as it reads. */
export interface RunIntegrity {
  /** Bytes cut from a torn last line (a writer killed mid-line). */
  tornBytes: number;
  /** Lines that were not events (not JSON, or JSON of another shape), skipped. */
  badLines: number;
  /** The first of them: its segment file, line number and what is wrong with it. */
  firstBadLine?: BadLine & {
    /** Path of the segment file holding the line. */
    segment: string;
  };
}

/**
 * The events of one segment's bytes, a line at a time as they are parsed (a reader that stops
 * early parses no more); what had to be cut or skipped is added to `integrity`.
 */
function* segmentEvents(
  segment: SegmentFile,
  read: { bytes: Buffer; tornBytes: number },
  integrity: RunIntegrity,
  skip: SkipPayloads = false,
): Generator<RecordedEvent> {
  integrity.tornBytes += read.tornBytes;
  for (const parsed of linesOfSegment(segment, read.bytes, skip)) {
    if ("kind" in parsed) yield parsed;
    else {
      integrity.badLines++;
      integrity.firstBadLine ??= { segment: segment.path, ...parsed };
    }
  }
}

/** `eventLines` of a segment's bytes; a line over the limit makes the segment unreadable (`SegmentCorruptError`): a recorder never writes one. */
export function linesOfSegment(
  segment: Pick<SegmentFile, "path">,
  bytes: Buffer,
  skip: SkipPayloads = false,
): Generator<RecordedEvent | BadLine> {
  return refusingLongLines(segment, eventLines(bytes, skip));
}

/** The byte ranges of a segment's lines, refused as `linesOfSegment` refuses them. */
export function checkedLineRanges(
  segment: Pick<SegmentFile, "path">,
  bytes: Buffer,
): Generator<[number, number, number]> {
  return refusingLongLines(segment, eventLineRanges(bytes));
}

function* refusingLongLines<T>(segment: Pick<SegmentFile, "path">, lines: Generator<T>): Generator<T> {
  try {
    yield* lines;
  } catch (error) {
    if (error instanceof EventLineTooLongError) throw new SegmentCorruptError(segment.path, error.message);
    throw error;
  }
}

/** Options of `iterateRunEvents` beyond `readRun`'s. */
export interface IterateRunOptions extends ReadRunOptions {
  /** Added to as the segments are read: bytes cut, lines skipped. */
  integrity?: RunIntegrity;
  /** Inline payloads to leave unread (see `RecordingEventsOptions.skipPayloads`). */
  skipPayloads?: SkipPayloads;
  /**
   * Decompress the next segment while this one is parsed, for a reader that reads to the end
   * (two segments in memory instead of one). Default false: a reader that stops early (a page)
   * decompresses nothing it does not read.
   */
  readAhead?: boolean;
}

/**
 * Events of a run segment by segment, in `seq` order (for big runs: one segment in memory at a
 * time, two with `readAhead`). Pass `integrity` to have what was cut or skipped added to it as the segments are read.
 */
export async function* iterateRunEvents(
  runDir: string,
  options: IterateRunOptions = {},
): AsyncGenerator<RecordedEvent> {
  const rebuilder = options.fullRequests ? new RequestRebuilder() : undefined;
  const integrity = options.integrity ?? { tornBytes: 0, badLines: 0 };
  const segments = await listSegments(runDir);
  let ahead: Promise<{ bytes: Buffer; tornBytes: number }> | undefined;
  for (let i = 0; i < segments.length; i++) {
    const read = await (ahead ?? readSegmentBytes(segments[i]));
    ahead = undefined;
    if (options.readAhead && i + 1 < segments.length) {
      ahead = readSegmentBytes(segments[i + 1]);
      // Its failure surfaces when it is awaited, in segment order; a reader that stops first never sees it.
      ahead.catch(() => undefined);
    }
    for (const event of segmentEvents(segments[i], read, integrity, options.skipPayloads))
      yield rebuilder ? rebuilder.apply(event) : event;
  }
}

/** What `readRun` read: the events, the segments they came from, and what had to be cut or skipped. */
export interface RunRead extends RunIntegrity {
  /** Every event, in `seq` order. */
  events: RecordedEvent[];
  /** The segments read, in order. */
  segments: SegmentFile[];
  /** With `keepText`: the complete lines of every segment, in order. */
  text?: string;
}

/** Every event of a run, in order, with what the reader had to cut or skip. */
export async function readRun(runDir: string, options: ReadRunOptions = {}): Promise<RunRead> {
  const segments = await listSegments(runDir);
  const rebuilder = options.fullRequests ? new RequestRebuilder() : undefined;
  const events: RecordedEvent[] = [];
  const integrity: RunIntegrity = { tornBytes: 0, badLines: 0 };
  const texts: Buffer[] | undefined = options.keepText ? [] : undefined;
  for (const segment of segments) {
    const read = await readSegmentBytes(segment);
    texts?.push(read.bytes);
    for (const event of segmentEvents(segment, read, integrity))
      events.push(rebuilder ? rebuilder.apply(event) : event);
  }
  return { events, ...integrity, segments, ...(texts ? { text: Buffer.concat(texts).toString("utf8") } : {}) };
}
