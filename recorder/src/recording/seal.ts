import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import type { SealedSegmentInfo } from "../format/event.js";
import { zstdCompress } from "@harnessx/artifacts";
import { forEachLine } from "../store/event-lines.js";

/**
 * The complete lines of NDJSON bytes: a torn last line (no newline: the writer died mid-write) is
 * cut. Works on bytes so the count is exact and the kept bytes are unchanged even when the file
 * holds invalid UTF-8 (decoding first would turn each bad byte into a 3-byte U+FFFD).
 */
export function completeLines(bytes: Buffer): { complete: Buffer; tornBytes: number } {
  const end = bytes.lastIndexOf(0x0a) + 1;
  return { complete: bytes.subarray(0, end), tornBytes: bytes.byteLength - end };
}

/**
 * Seals a plain segment: its complete lines become `<name>.zst` (one zstd frame, temp file +
 * rename) with a `<name>.zst.sha256` sidecar, then the plain file goes. A crash at any step
 * leaves either the plain file or a verified sealed one for readers, never neither.
 */
export async function sealSegment(plainPath: string): Promise<SealedSegmentInfo> {
  const { complete: content } = completeLines(await fs.readFile(plainPath));
  const info = await writeSealed(plainPath, content);
  await fs.rm(plainPath, { force: true });
  return info;
}

/** Writes complete NDJSON lines as the sealed segment `<plainPath>.zst` (then its sidecar), each atomically. */
export async function writeSealed(
  plainPath: string,
  content: Buffer,
  alongside: Array<[string, string]> = [],
): Promise<SealedSegmentInfo> {
  const { frame, info } = await sealedFrame(content);
  const sealedPath = `${plainPath}.zst`;
  await writeAllAtomically([[sealedPath, frame], [`${sealedPath}.sha256`, `${JSON.stringify(info)}\n`], ...alongside]);
  return info;
}

/** The zstd frame of a segment's complete lines and the sidecar that describes it. */
async function sealedFrame(content: Buffer): Promise<{ frame: Buffer; info: SealedSegmentInfo }> {
  const frame = await zstdCompress(content);
  const info: SealedSegmentInfo = {
    sha256: createHash("sha256").update(frame).digest("hex"),
    bytes: content.byteLength,
    compressedBytes: frame.byteLength,
    ...lineStats(content),
  };
  return { frame, info };
}

/**
 * Writes files each whole or not at all: all temporaries at once (file creation is the slow
 * part), then renamed in the order given, so a reader never finds a later file without the
 * earlier ones (a sealed segment's sidecar without the segment, `run.json` without either).
 */
export async function writeAllAtomically(files: ReadonlyArray<readonly [string, Uint8Array | string]>): Promise<void> {
  const staged = files.map(([path]) => `${path}.tmp-${process.pid}`);
  await Promise.all(files.map(([, data], i) => fs.writeFile(staged[i], data)));
  for (let i = 0; i < files.length; i++) await fs.rename(staged[i], files[i][0]);
}

/** Counted on the bytes: decoding a whole segment to split it costs more than compressing it. */
function lineStats(content: Buffer): Pick<SealedSegmentInfo, "events" | "firstSeq" | "lastSeq"> {
  let events = 0;
  let first: number | undefined;
  let last = 0;
  forEachLine(content, (start) => {
    events++;
    first ??= start;
    last = start;
  });
  return {
    events,
    firstSeq: first === undefined ? null : seqAt(content, first),
    lastSeq: first === undefined ? null : seqAt(content, last),
  };
}

/** The `seq` of the line starting at `start` (it comes first in every line the recorder writes). */
function seqAt(content: Buffer, start: number): number | null {
  const newline = content.indexOf(0x0a, start);
  const head = content.toString("utf8", start, Math.min(newline === -1 ? content.byteLength : newline, start + 4096));
  const match = /"seq":(\d+)/.exec(head);
  return match ? Number(match[1]) : null;
}

export async function writeAtomically(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, path);
}
