import { dirname } from "node:path";
import {
  isArtifactId,
  MAX_DECOMPRESSED_BYTES,
  zstdCompress,
  zstdDecompressWithin,
  ZSTD_MAX_BLOCK_BYTES,
} from "@harnessx/artifacts";
import type { RecordedEvent, RunSummary } from "../format/event.js";
import { completeLines } from "../recording/seal.js";
import { parseEventLines } from "../store/event-lines.js";
import {
  listSegments,
  readSegmentFile,
  SegmentCorruptError,
  verifySealedSegment,
  type SegmentFile,
} from "../store/read-run.js";
import { countEvent, emptySummary } from "../format/run-summary.js";
import { artifactsOf } from "../store/references.js";
import { sealedLineFacts } from "./sealed-lines.js";
import { EventLineTooLongError } from "../format/read-limits.js";

export interface DroppedGap {
  seq: number;
  count: number;
  fromTs: number;
  toTs: number;
}

/** A run's `events.ndjson.zst` member and what the manifest says about its events. */
export interface EventMember {
  /** zstd frames, one per segment, concatenated (a valid zstd stream: it decodes to the lines in order). */
  frames: Buffer;
  /** Decompressed size: every complete line of every segment. */
  contentBytes: number;
  summary: RunSummary;
  window: { fromTs: number | null; toTs: number | null };
  gaps: DroppedGap[];
  /** Every artifact the events reference, and those of them other extensions stored (spills). */
  referenced: Set<string>;
  spilled: Set<string>;
}

/**
 * Builds the events member segment by segment. A sealed segment's frame is already the recorded
 * (redacted) lines in zstd: it is verified against its sidecar and copied as is, so export does
 * not pay to compress the run again. The manifest's totals, window, drop gaps and artifact list
 * still come from the lines, and the bundle must hold events only: a verified sealed segment's
 * lines are confirmed cheaply (`sealedLineFacts`), any other segment's are parsed and checked
 * whole, and a segment with lines that are not events (damage) is re-encoded from its good
 * events, as the reader skips the bad ones. The next segment is read, verified and decompressed
 * (off the main thread) while this one is scanned: two segments in memory at a time.
 */
export async function buildEventMember(runDir: string): Promise<EventMember> {
  const member: EventMember = {
    frames: Buffer.alloc(0),
    contentBytes: 0,
    summary: emptySummary(),
    window: { fromTs: null, toTs: null },
    gaps: [],
    referenced: new Set(),
    spilled: new Set(),
  };
  const frames: Buffer[] = [];
  const segments = await listSegments(runDir);
  let next = segments.length > 0 ? prefetch(segments[0]) : undefined;
  for (let i = 0; i < segments.length; i++) {
    const { frame, content, verified } = await next!;
    next = i + 1 < segments.length ? prefetch(segments[i + 1]) : undefined;
    const facts = frame && verified ? refusingLongLines(segments[i], () => sealedLineFacts(content)) : undefined;
    if (facts) {
      for (const fact of facts)
        account(member, "event" in fact ? fact.event : { kind: fact.kind, ts: fact.ts, attrs: NO_ATTRS });
      frames.push(frame!);
      member.contentBytes += content.byteLength;
      continue;
    }
    const parsed = refusingLongLines(segments[i], () => parseEventLines(content));
    for (const event of parsed.events) account(member, event);
    if (parsed.badLines === 0) {
      frames.push(frame ?? (await zstdCompress(content)));
      member.contentBytes += content.byteLength;
    } else if (parsed.events.length > 0) {
      const clean = Buffer.from(parsed.events.map((event) => `${JSON.stringify(event)}\n`).join(""));
      frames.push(await zstdCompress(clean));
      member.contentBytes += clean.byteLength;
    }
  }
  // A run without a line still gets a valid (empty) frame.
  member.frames = frames.length ? Buffer.concat(frames) : await zstdCompress(Buffer.alloc(0));
  return member;
}

/** A line no reader would take makes its segment unexportable, as it makes it unreadable. */
function refusingLongLines<T>(segment: SegmentFile, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof EventLineTooLongError) throw new SegmentCorruptError(segment.path, error.message);
    throw error;
  }
}

/** Starts reading a segment; its failure surfaces where it is awaited, never as an unhandled rejection meanwhile. */
function prefetch(segment: SegmentFile): Promise<ReadSegment> {
  const reading = readSegment(segment);
  reading.catch(() => undefined);
  return reading;
}

/** Attributes of a line confirmed from its first bytes: its kind's totals never read them (`sealedLineFacts`). */
const NO_ATTRS: Record<string, unknown> = Object.freeze({});

type Accounted = Pick<RecordedEvent, "kind" | "ts" | "attrs"> & Partial<Pick<RecordedEvent, "seq" | "payloadRef">>;

function account(member: EventMember, event: Accounted): void {
  countEvent(member.summary, event as RecordedEvent);
  member.window.fromTs ??= event.ts;
  member.window.toTs = event.ts;
  if (event.kind === "recorder.dropped") {
    const attrs = event.attrs;
    member.gaps.push({
      seq: event.seq!,
      count: Number(attrs.count) || 0,
      fromTs: Number(attrs.fromTs) || event.ts,
      toTs: Number(attrs.toTs) || event.ts,
    });
  }
  if (event.payloadRef && isArtifactId(event.payloadRef.sha256)) member.referenced.add(event.payloadRef.sha256);
  for (const id of artifactsOf(event.attrs)) {
    member.referenced.add(id);
    member.spilled.add(id);
  }
}

interface ReadSegment {
  /** The sealed frame, when the segment is sealed. */
  frame?: Buffer;
  content: Buffer;
  /** The frame matched the sha256 of its sidecar (a sealed segment without a sidecar has nothing to match). */
  verified: boolean;
}

/** A segment's complete lines, and its verified sealed frame when it has one to copy. */
async function readSegment(segment: SegmentFile): Promise<ReadSegment> {
  if (!segment.sealed) {
    const raw = await readSegmentFile(segment).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    // Sealed by its recorder since it was listed: read the sealed copy instead.
    if (raw === undefined) {
      const sealed = (await listSegments(dirname(dirname(segment.path)))).find(
        (s) => s.index === segment.index && s.sealed,
      );
      if (!sealed) throw new SegmentCorruptError(segment.path, "it disappeared while being read, with no sealed copy");
      return readSegment(sealed);
    }
    return { content: completeLines(raw).complete, verified: false };
  }
  const frame = await verifySealedSegment(segment);
  const limit = segment.info
    ? Math.min(segment.info.bytes + ZSTD_MAX_BLOCK_BYTES, MAX_DECOMPRESSED_BYTES)
    : MAX_DECOMPRESSED_BYTES;
  const content = await zstdDecompressWithin(frame, limit).catch((error: unknown) => {
    throw new SegmentCorruptError(segment.path, `its zstd frame does not decode (${(error as Error).message})`);
  });
  if (segment.info && content.byteLength !== segment.info.bytes)
    throw new SegmentCorruptError(
      segment.path,
      `it decodes to ${content.byteLength} bytes, its sidecar says ${segment.info.bytes}`,
    );
  return { frame, content, verified: segment.info !== undefined };
}
