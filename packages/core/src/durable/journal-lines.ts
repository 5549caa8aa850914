import { ResumeError } from "./resume-error.js";

/**
 * The longest journal line a reader takes by default: 64 MiB. A line holds one committed phase,
 * and the largest a run writes are a tool's raw outcome and a snapshot of the conversation (whose
 * results are already cut to `maxResultChars`); a tool that returns more than this keeps its run
 * from being resumed unless the store is given a higher `maxLineBytes`.
 */
export const MAX_JOURNAL_LINE_BYTES = 64 * 1024 * 1024;

/** What a journal read gives, in order: each complete line (without its newline), then the bytes of a torn last line. */
export type JournalPiece =
  | {
      /** A complete line's bytes, without its newline. */
      line: Buffer;
    }
  | {
      /** Bytes after the last newline: a line the process died writing. */
      tornBytes: number;
    };

/**
 * Cuts a journal's bytes into lines as they arrive, holding at most one line: a line (or a torn
 * last one) longer than `maxLineBytes` is refused with `ResumeError` (`journal_too_large`) as soon
 * as it passes the limit, before the rest of it is read.
 */
export class JournalLineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private lines = 0;

  constructor(
    private readonly runId: string,
    private readonly maxLineBytes: number = MAX_JOURNAL_LINE_BYTES,
    /** How to raise the limit, for the message. */
    private readonly raise = "a FileDurableStore takes longer lines with { maxLineBytes }",
  ) {}

  /** The lines `chunk` completes, in order. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.hold(newline - start);
      out.push(
        this.pendingBytes === 0
          ? chunk.subarray(start, newline)
          : Buffer.concat([...this.pending, chunk.subarray(start, newline)]),
      );
      this.lines++;
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
    }
    if (start < chunk.byteLength) {
      this.hold(chunk.byteLength - start);
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.byteLength - start;
    }
    return out;
  }

  /** Bytes left after the last newline (a torn last line), once the journal has been read to its end. */
  end(): number {
    return this.pendingBytes;
  }

  private hold(more: number): void {
    const bytes = this.pendingBytes + more;
    if (bytes <= this.maxLineBytes) return;
    const n = (value: number) => value.toLocaleString("en-US");
    throw new ResumeError(
      "journal_too_large",
      this.runId,
      `line ${this.lines + 1} of the journal of ${this.runId} is longer than the ${n(this.maxLineBytes)} bytes a reader takes: refused before reading the rest of it (${this.raise})`,
    );
  }
}

/** The pieces of a journal held whole in memory (a store without `readLines`), cut by the same rule. */
export function* piecesOf(runId: string, bytes: Buffer): Generator<JournalPiece> {
  const splitter = new JournalLineSplitter(runId);
  for (const line of splitter.push(bytes)) yield { line };
  if (splitter.end() > 0) yield { tornBytes: splitter.end() };
}
