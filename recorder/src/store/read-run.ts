import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { HarnessError } from "@harnessx/core";
import type { RecordedEvent, SealedSegmentInfo } from "../format/event.js";
import { segmentIndexOf, segmentsDirOf } from "../format/layout.js";
import { RequestRebuilder } from "../format/request-rebuilder.js";
import { completeLines } from "../recording/seal.js";
import { zstdDecompress } from "../zstd/index.js";

/** A sealed segment whose bytes no longer match the checksum written when it was sealed. */
export class SegmentCorruptError extends HarnessError {
  constructor(readonly path: string, detail: string) {
    super("segment_corrupt", `segment ${path} is corrupt: ${detail}`);
  }
}

/** One segment as a reader found it. */
export interface SegmentFile {
  index: number;
  path: string;
  sealed: boolean;
  /** The sealed checksum sidecar, when the segment is sealed. */
  info?: SealedSegmentInfo;
}

export interface ReadRunOptions {
  /** Put back the messages, system prompt and tools left out of LLM_REQUEST events. Default false. */
  fullRequests?: boolean;
  /** Also return the NDJSON text as read (complete lines only), e.g. to copy it without re-serializing. */
  keepText?: boolean;
}

/** The run's segments in order: sealed where a verified seal exists, else the plain file. */
export async function listSegments(runDir: string): Promise<SegmentFile[]> {
  const dir = segmentsDirOf(runDir);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const byIndex = new Map<number, SegmentFile>();
  for (const name of names) {
    const index = segmentIndexOf(name);
    if (index === undefined) continue;
    const sealed = name.endsWith(".zst");
    const current = byIndex.get(index);
    if (sealed) {
      const info = await fs
        .readFile(join(dir, `${name}.sha256`), "utf8")
        .then((text) => JSON.parse(text) as SealedSegmentInfo)
        .catch(() => undefined);
      // A seal without its sidecar was interrupted; the plain file (still there) is authoritative.
      if (info) byIndex.set(index, { index, path: join(dir, name), sealed: true, info });
      else if (!current) byIndex.set(index, { index, path: join(dir, name), sealed: true });
    } else if (!current || !current.info) {
      byIndex.set(index, { index, path: join(dir, name), sealed: false });
    }
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** The NDJSON text of one segment: verified and decompressed when sealed, torn last line cut when plain. */
export async function readSegmentText(segment: SegmentFile): Promise<{ text: string; tornBytes: number }> {
  const raw = await fs.readFile(segment.path);
  if (!segment.sealed) {
    const { complete, tornBytes } = completeLines(raw);
    return { text: complete.toString("utf8"), tornBytes };
  }
  if (segment.info && createHash("sha256").update(raw).digest("hex") !== segment.info.sha256) {
    throw new SegmentCorruptError(segment.path, "its sha256 differs from the one recorded when it was sealed");
  }
  const text = await zstdDecompress(raw).catch((error: unknown) => {
    throw new SegmentCorruptError(segment.path, `its zstd frame does not decode (${(error as Error).message})`);
  });
  return { text: text.toString("utf8"), tornBytes: 0 };
}

/** Parses NDJSON lines; a line that is not JSON (damage in the middle of a file) is counted, not fatal. */
export function parseLines(text: string): { events: RecordedEvent[]; badLines: number } {
  const events: RecordedEvent[] = [];
  let badLines = 0;
  for (const line of text.split("\n")) {
    if (line.length === 0) continue;
    try {
      events.push(JSON.parse(line) as RecordedEvent);
    } catch {
      badLines++;
    }
  }
  return { events, badLines };
}

/** Events of a run segment by segment, in `seq` order (for big runs). */
export async function* iterateRunEvents(runDir: string, options: ReadRunOptions = {}): AsyncGenerator<RecordedEvent> {
  const rebuilder = options.fullRequests ? new RequestRebuilder() : undefined;
  for (const segment of await listSegments(runDir)) {
    const { text } = await readSegmentText(segment);
    for (const event of parseLines(text).events) yield rebuilder ? rebuilder.apply(event) : event;
  }
}

export interface RunRead {
  events: RecordedEvent[];
  /** Bytes cut from a torn last line (a writer killed mid-line). */
  tornBytes: number;
  /** Lines that were not JSON. */
  badLines: number;
  segments: SegmentFile[];
  /** With `keepText`: the complete lines of every segment, in order. */
  text?: string;
}

/** Every event of a run, in order, with what the reader had to cut. */
export async function readRun(runDir: string, options: ReadRunOptions = {}): Promise<RunRead> {
  const segments = await listSegments(runDir);
  const rebuilder = options.fullRequests ? new RequestRebuilder() : undefined;
  const events: RecordedEvent[] = [];
  let tornBytes = 0;
  let badLines = 0;
  const texts: string[] = [];
  for (const segment of segments) {
    const read = await readSegmentText(segment);
    if (options.keepText) texts.push(read.text);
    tornBytes += read.tornBytes;
    const parsed = parseLines(read.text);
    badLines += parsed.badLines;
    for (const event of parsed.events) events.push(rebuilder ? rebuilder.apply(event) : event);
  }
  return { events, tornBytes, badLines, segments, ...(options.keepText ? { text: texts.join("") } : {}) };
}
