import type { FileHandle } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { hostname } from "node:os";
import type { RecordedEvent, RecordedRunStatus, RunManifest } from "../format/event.js";
import { completeLines } from "../recording/seal.js";
import { MAX_DECOMPRESSED_BYTES } from "@harnessx/artifacts";
import { openRegularFile } from "@harnessx/core/extension";
import { inflateSealed, linesOfSegment, listSegments, SegmentCorruptError, type SegmentFile } from "./read-run.js";
import { isProcessAlive, lockHolder } from "./recover.js";
import { assertEventsKept, readRunManifest } from "./run-manifest.js";

/** Options of `followRun`. */
export interface FollowRunOptions {
  /** Stops following (the iterator then ends without error). */
  signal?: AbortSignal;
  /** How often the run's files are looked at for new lines. Default 200 ms. */
  pollMs?: number;
  /** False: end once what is on disk now was read, without waiting for more. Default true. */
  follow?: boolean;
  /** Called once, when everything on disk at the start was read (before waiting for more). */
  onCaughtUp?: () => void;
}

/** Statuses after which a run's files no longer grow. */
const OPEN_STATUSES: ReadonlySet<RecordedRunStatus> = new Set(["running", "awaiting_approval"]);

/**
 * The events of a run as its recorder writes them, `seq` order, each once: what is on disk
 * first, then new complete lines as they land, across segment rotations (a plain segment that
 * gets sealed is continued in its sealed copy, past the bytes already read). Reads only what is
 * new on each look, so following a long run costs what reading it once does. Ends once the
 * run's `run.json` says it ended and everything it wrote was read, or when `signal` aborts.
 * A run reduced to its summary by tail retention throws `RunReducedError`.
 */
export async function* followRun(runDir: string, options: FollowRunOptions = {}): AsyncGenerator<RecordedEvent> {
  const pollMs = options.pollMs ?? 200;
  // A run tail retention reduced to its summary has no events to follow: `RunReducedError`, not silence.
  const before = await readRunManifest(runDir).catch(() => undefined);
  if (before) assertEventsKept(before);
  // Where reading stands: the segment, the bytes of its complete lines read, and whether it is sealed and read whole.
  let index = 0;
  let consumed = 0;
  let whole = false;
  let caughtUp = false;
  for (;;) {
    if (options.signal?.aborted) return;
    // The status first: lines written before the run ended are then surely among those read next.
    const ended = !OPEN_STATUSES.has(await runStatus(runDir));
    let progressed = false;
    let relist = false;
    // A listed segment with a later one beside it is complete: the writer rotates after its last write.
    for (const segment of await listSegments(runDir)) {
      if (segment.index < index || (segment.index === index && whole)) continue;
      if (segment.index > index) [index, consumed, whole] = [segment.index, 0, false];
      const fresh = await newLines(segment, consumed);
      if (fresh === undefined) {
        relist = true;
        break;
      }
      consumed += fresh.byteLength;
      whole = segment.sealed;
      if (fresh.byteLength > 0) progressed = true;
      // Lines that are not events are skipped, as every reader skips them.
      for (const parsed of linesOfSegment(segment, fresh)) if ("kind" in parsed) yield parsed;
    }
    if (relist || progressed) continue;
    if (!caughtUp) {
      caughtUp = true;
      options.onCaughtUp?.();
    }
    if (ended || options.follow === false) return;
    try {
      await sleep(pollMs, undefined, { signal: options.signal });
    } catch {
      return;
    }
  }
}

/**
 * The run's status: "running" while it has no `run.json` yet (nothing written so far), and
 * "incomplete" when it says it is open but the process recording it on this host is gone (a
 * crash: its files will not grow again until `recover` seals them).
 */
async function runStatus(runDir: string): Promise<RecordedRunStatus> {
  let manifest: RunManifest;
  try {
    manifest = await readRunManifest(runDir);
  } catch {
    return "running";
  }
  if (!OPEN_STATUSES.has(manifest.status) || manifest.hostname !== hostname()) return manifest.status;
  const pid = await lockHolder(runDir);
  return pid !== undefined && !isProcessAlive(pid) ? "incomplete" : manifest.status;
}

/** Complete lines of a segment past its first `from` bytes; undefined when a plain file was sealed (and removed) since it was listed. */
async function newLines(segment: SegmentFile, from: number): Promise<Buffer | undefined> {
  if (segment.sealed) return (await inflateSealed(segment)).subarray(from);
  let handle: FileHandle;
  try {
    handle = await openRegularFile(segment.path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size <= from) return Buffer.alloc(0);
    // A plain segment is sealed long before this; past the reader's ceiling it is not the recorder's.
    if (size > MAX_DECOMPRESSED_BYTES)
      throw new SegmentCorruptError(
        segment.path,
        `${size} bytes, more than a reader takes (${MAX_DECOMPRESSED_BYTES})`,
      );
    const buffer = Buffer.alloc(size - from);
    const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, from);
    return completeLines(buffer.subarray(0, bytesRead)).complete;
  } finally {
    await handle.close();
  }
}
