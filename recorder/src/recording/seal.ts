import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import type { SealedSegmentInfo } from "../format/event.js";
import { zstdCompress } from "../zstd/index.js";

/** The complete lines of NDJSON text: a torn last line (no newline: the writer died mid-write) is cut. */
export function completeLines(text: string): { complete: string; torn: boolean } {
  const end = text.lastIndexOf("\n");
  if (end === text.length - 1) return { complete: text, torn: false };
  return { complete: text.slice(0, end + 1), torn: true };
}

/**
 * Seals a plain segment: its complete lines become `<name>.zst` (one zstd frame, temp file +
 * rename) with a `<name>.zst.sha256` sidecar, then the plain file goes. A crash at any step
 * leaves either the plain file or a verified sealed one for readers, never neither.
 */
export async function sealSegment(plainPath: string): Promise<SealedSegmentInfo> {
  const { complete } = completeLines(await fs.readFile(plainPath, "utf8"));
  const content = Buffer.from(complete, "utf8");
  const frame = await zstdCompress(content);
  const info: SealedSegmentInfo = {
    sha256: createHash("sha256").update(frame).digest("hex"),
    contentSha256: createHash("sha256").update(content).digest("hex"),
    bytes: content.byteLength,
    compressedBytes: frame.byteLength,
    ...lineStats(complete),
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
