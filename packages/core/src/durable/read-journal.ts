import type { ConversationEntry } from "../messages/custom-messages.js";
import type { DurableStore } from "./durable-store.js";
import { checkRunId } from "./file-durable-store.js";
import type { JournalEntry, JournalLine, RunStartEntry, SnapshotEntry } from "./journal-entry.js";
import { piecesOf, type JournalPiece } from "./journal-lines.js";
import { ResumeError } from "./resume-error.js";

const PHASES = new Set([
  "run_start",
  "snapshot",
  "model_reply",
  "tool_started",
  "tool_outcome",
  "approval_wait",
  "approval",
  "run_end",
]);

/** Where a journal leaves a run: its start, its last snapshot (with the whole conversation), and what it committed after. */
export interface ResumePoint {
  /** The run's start: its input and identity. */
  start: RunStartEntry;
  /** The last snapshot, its conversation folded from every earlier delta. */
  snapshot: SnapshotEntry;
  /** Entries committed after that snapshot, in order. */
  after: JournalEntry[];
  /** Bytes of a torn last line cut (the process died mid-write). */
  tornBytes: number;
}

/** A journal's bytes read as lines. */
export interface ParsedJournal {
  /** Every complete line, in order. */
  lines: JournalLine[];
  /** Bytes of a torn last line cut (the process died mid-write). */
  tornBytes: number;
}

/** One line's entry; a line that is not a journal entry of version 1 is a `ResumeError`. */
function entryOf(runId: string, raw: Buffer, number: number): JournalLine {
  let line: JournalLine;
  try {
    line = JSON.parse(raw.toString("utf8")) as JournalLine;
  } catch {
    throw new ResumeError(
      "journal_corrupt",
      runId,
      `line ${number} of the journal of ${runId} is not JSON: the journal was damaged after it was written; the run cannot be resumed`,
    );
  }
  // Null, a number, a string or an array has no `v` of 1 either.
  if (line?.v !== 1 || !PHASES.has(line.phase)) {
    throw new ResumeError(
      "journal_corrupt",
      runId,
      `line ${number} of the journal of ${runId} is not a journal entry of version 1`,
    );
  }
  return line;
}

/** Reads a journal's pieces in order: the entry of each line (lines numbered from 1, empty ones passed over), and the torn bytes. */
class EntryReader {
  private number = 0;
  /** Bytes of a torn last line, once read. */
  tornBytes = 0;

  constructor(private readonly runId: string) {}

  entryOf(piece: JournalPiece): JournalLine | undefined {
    if ("tornBytes" in piece) {
      this.tornBytes = piece.tornBytes;
      return undefined;
    }
    this.number++;
    return piece.line.byteLength > 0 ? entryOf(this.runId, piece.line, this.number) : undefined;
  }
}

/**
 * The entries of a journal's bytes, a line at a time (never the whole text as one string); a torn
 * last line (no newline) is cut, any other bad line, or one over `MAX_JOURNAL_LINE_BYTES`, is a `ResumeError`.
 */
export function parseJournal(runId: string, bytes: Buffer): ParsedJournal {
  const reader = new EntryReader(runId);
  const lines: JournalLine[] = [];
  for (const piece of piecesOf(runId, bytes)) {
    const line = reader.entryOf(piece);
    if (line) lines.push(line);
  }
  return { lines, tornBytes: reader.tornBytes };
}

/**
 * Reads a run's journal and finds where to resume it, a line at a time (through the store's
 * `readLines` when it has one: the reader then holds the run's state and one line, never the
 * file); throws `ResumeError` when it cannot be resumed, and when the journal is another run's.
 */
export async function readResumePoint(store: DurableStore, runId: string): Promise<ResumePoint> {
  checkRunId(runId);
  const pieces = store.readLines
    ? await store.readLines(runId)
    : await store.read(runId).then((bytes) => bytes && piecesOf(runId, bytes));
  if (!pieces)
    throw new ResumeError(
      "not_journaled",
      runId,
      `there is no journal of ${runId} in the durable store: only runs of an agent with a durable store can be resumed`,
    );
  const reader = new EntryReader(runId);
  let start: RunStartEntry | undefined;
  let entries: ConversationEntry[] = [];
  /** The last snapshot and what was committed after it. */
  let last: { snapshot: SnapshotEntry; after: JournalEntry[] } | undefined;
  for await (const piece of pieces) {
    const line = reader.entryOf(piece);
    if (!line) continue;
    if (line.phase === "run_start") {
      // A journal copied under another run's name would re-run that run's calls under new idempotency keys.
      if (line.runId !== runId)
        throw new ResumeError(
          "journal_foreign",
          runId,
          `the journal of ${runId} is the journal of ${JSON.stringify(line.runId)} (copied or renamed): refused, resume that run by its own id`,
        );
      start ??= line;
    } else if (line.phase === "run_end") {
      throw new ResumeError(
        "already_ended",
        runId,
        `${runId} already ended (${line.status}): there is nothing to resume`,
      );
    } else if (line.phase === "snapshot") {
      entries = [...entries.slice(0, line.keep), ...line.entries];
      last = { snapshot: line, after: [] };
    } else {
      last?.after.push(line);
    }
  }
  if (!start || !last)
    throw new ResumeError(
      "not_journaled",
      runId,
      `the journal of ${runId} ends before its first checkpoint: the process died before the run began its first step; run it again`,
    );
  return { start, snapshot: { ...last.snapshot, keep: 0, entries }, after: last.after, tornBytes: reader.tornBytes };
}
