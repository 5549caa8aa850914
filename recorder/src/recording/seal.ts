import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import type { SealedSegmentInfo } from "../format/event.js";
import { zstdCompress } from "@harnessx/artifacts";

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
  const frame = await zstdCompress(content);
  const info: SealedSegmentInfo = {
    sha256: createHash("sha256").update(frame).digest("hex"),
    contentSha256: createHash("sha256").update(content).digest("hex"),
    bytes: content.byteLength,
    compressedBytes: frame.byteLength,
    ...lineStats(content.toString("utf8")),
  };
  const sealedPath = `${plainPath}.zst`;
  await writeAtomically(sealedPath, frame);
  await writeAtomically(`${sealedPath}.sha256`, JSON.stringify(info) + "\n");
  await fs.rm(plainPath, { force: true });
  return info;
}

function lineStats(text: string): Pick<SealedSegmentInfo, "events" | "firstSeq" | "lastSeq"> {
  const lines = text.split("\n").filter((line) => line.length > 0);
  return { events: lines.length, firstSeq: seqOf(lines[0]), lastSeq: seqOf(lines[lines.length - 1]) };
}

function seqOf(line: string | undefined): number | null {
  const match = line ? /"seq":(\d+)/.exec(line) : null;
  return match ? Number(match[1]) : null;
}

export async function writeAtomically(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, path);
}
