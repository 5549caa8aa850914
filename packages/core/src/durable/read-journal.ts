import type { ConversationEntry } from "../messages/custom-messages.js";
import type { DurableStore } from "./durable-store.js";
import { checkRunId } from "./file-durable-store.js";
import type { JournalEntry, JournalLine, RunStartEntry, SnapshotEntry } from "./journal-entry.js";
import { ResumeError } from "./resume-error.js";

const PHASES = new Set(["run_start", "snapshot", "model_reply", "tool_started", "tool_outcome", "approval_wait", "approval", "run_end"]);

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

/** The entries of a journal's bytes; a torn last line (no newline) is cut, any other bad line is a `ResumeError`. */
export function parseJournal(runId: string, bytes: Buffer): ParsedJournal {
  const end = bytes.lastIndexOf(0x0a) + 1;
  const lines: JournalLine[] = [];
  const text = bytes.subarray(0, end).toString("utf8");
  let number = 0;
  for (const raw of text.split("\n")) {
    number++;
    if (raw === "") continue;
    let line: JournalLine;
    try {
      line = JSON.parse(raw) as JournalLine;
    } catch {
      throw new ResumeError("journal_corrupt", runId, `line ${number} of the journal of ${runId} is not JSON: the journal was damaged after it was written; the run cannot be resumed`);
    }
    if (!line || typeof line !== "object" || line.v !== 1 || !PHASES.has(line.phase)) {
      throw new ResumeError("journal_corrupt", runId, `line ${number} of the journal of ${runId} is not a journal entry of version 1`);
    }
    lines.push(line);
  }
  return { lines, tornBytes: bytes.length - end };
}

/** Reads a run's journal and finds where to resume it; throws `ResumeError` when it cannot be resumed. */
export async function readResumePoint(store: DurableStore, runId: string): Promise<ResumePoint> {
  const bytes = await store.read(checkRunId(runId));
  if (!bytes) throw new ResumeError("not_journaled", runId, `there is no journal of ${runId} in the durable store: only runs of an agent with a durable store can be resumed`);
  const { lines, tornBytes } = parseJournal(runId, bytes);
  const start = lines.find((l): l is JournalLine & RunStartEntry => l.phase === "run_start");
  let entries: ConversationEntry[] = [];
  let snapshot: SnapshotEntry | undefined;
  let after: JournalEntry[] = [];
  for (const line of lines) {
    if (line.phase === "run_end") {
      throw new ResumeError("already_ended", runId, `${runId} already ended (${line.status}): there is nothing to resume`);
    }
    if (line.phase === "snapshot") {
      entries = [...entries.slice(0, line.keep), ...line.entries];
      snapshot = line;
      after = [];
    } else if (line.phase !== "run_start") {
      after.push(line);
    }
  }
  if (!start || !snapshot) throw new ResumeError("not_journaled", runId, `the journal of ${runId} ends before its first checkpoint: the process died before the run began its first step; run it again`);
  return { start, snapshot: { ...snapshot, keep: 0, entries }, after, tornBytes };
}
