import { isAscii } from "node:buffer";
import { boundary, CharIndex } from "./char-index.js";

const LF = 0x0a;
const LINE_STEP = 1024;

/**
 * The text `slice` and `search` read, kept as UTF-8 bytes (no second copy as a JS string):
 * JSON pretty-printed (so one huge line pages properly), every other kind as stored.
 * Offsets are byte offsets; lines are numbered from 1.
 */
export class TextView {
  private lines?: number;
  /** checkpoints[k] is the offset of line k * LINE_STEP + 1. */
  private checkpoints: number[] = [0];
  private ascii?: boolean;
  private charIndex?: CharIndex;

  constructor(
    readonly bytes: Buffer,
    /** True when the text is a re-indented JSON document. */
    readonly prettyJson: boolean,
  ) {}

  get length(): number {
    return this.bytes.length;
  }

  get lineCount(): number {
    if (this.lines === undefined) this.indexLines();
    return this.lines!;
  }

  /** Counts lines once and keeps every LINE_STEP-th line start, so seeking a line is quick. */
  private indexLines(): void {
    const starts: number[] = [0];
    let count = this.bytes.length === 0 ? 0 : 1;
    for (let at = this.bytes.indexOf(LF); at >= 0; at = this.bytes.indexOf(LF, at + 1)) {
      if (count % LINE_STEP === 0) starts.push(at + 1);
      count++;
    }
    if (this.bytes[this.bytes.length - 1] === LF) count--;
    this.lines = count;
    this.checkpoints = starts;
  }

  /** Characters (UTF-16 code units, as the model's tools count them) in the whole view. */
  get charCount(): number {
    return this.isAscii ? this.bytes.length : this.chars().charCount;
  }

  private get isAscii(): boolean {
    return (this.ascii ??= isAscii(this.bytes));
  }

  private chars(): CharIndex {
    return (this.charIndex ??= new CharIndex(this.bytes));
  }

  /** Byte offset of character offset `char` (clamped to the end). */
  byteOfChar(char: number): number {
    return this.isAscii ? Math.min(char, this.bytes.length) : this.chars().byteOfChar(char);
  }

  /** Character offset of byte offset `byte`. */
  charOfByte(byte: number): number {
    return this.isAscii ? byte : this.chars().charOfByte(byte);
  }

  /** Decoded text between two byte offsets, moved back to character boundaries. */
  text(from: number, to: number): string {
    return this.bytes.toString("utf8", this.boundary(from), this.boundary(Math.min(to, this.bytes.length)));
  }

  /** `offset`, or the start of the multi-byte character it falls inside. */
  boundary(offset: number): number {
    return boundary(this.bytes, offset);
  }

  /** Offset where line `line` (1-based) starts, or -1 past the end. */
  lineStart(line: number): number {
    if (line > this.lineCount) return -1;
    const k = Math.min(Math.floor((line - 1) / LINE_STEP), this.checkpoints.length - 1);
    let pos = this.checkpoints[k]!;
    for (let l = k * LINE_STEP + 1; l < line; l++) pos = this.bytes.indexOf(LF, pos) + 1;
    return pos;
  }

  /** Number (from 1) of the line containing `offset`: from the nearest checkpoint, not from the start. */
  lineNumberAt(offset: number): number {
    if (this.lines === undefined) this.indexLines();
    let lo = 0;
    let hi = this.checkpoints.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.checkpoints[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    let line = lo * LINE_STEP + 1;
    for (
      let at = this.bytes.indexOf(LF, this.checkpoints[lo]);
      at >= 0 && at < offset;
      at = this.bytes.indexOf(LF, at + 1)
    )
      line++;
    return line;
  }

  /** End of the line containing `offset` (exclusive, before the newline). */
  lineEnd(offset: number): number {
    const nl = this.bytes.indexOf(LF, offset);
    return nl < 0 ? this.bytes.length : nl;
  }

  /** Start of the line containing `offset`. */
  lineStartAt(offset: number): number {
    return offset === 0 ? 0 : this.bytes.lastIndexOf(LF, offset - 1) + 1;
  }
}

/** Least-recently-used views kept under a budget of bytes. */
export class ViewCache {
  private readonly views = new Map<string, TextView>();
  private used = 0;

  constructor(private readonly budget: number) {}

  get(key: string): TextView | undefined {
    const view = this.views.get(key);
    if (view) {
      this.views.delete(key);
      this.views.set(key, view);
    }
    return view;
  }

  set(key: string, view: TextView): void {
    this.delete(key);
    if (view.length > this.budget) return;
    this.views.set(key, view);
    this.used += view.length;
    for (const [oldest, old] of this.views) {
      if (this.used <= this.budget) break;
      this.views.delete(oldest);
      this.used -= old.length;
    }
  }

  delete(key: string): void {
    const view = this.views.get(key);
    if (!view) return;
    this.views.delete(key);
    this.used -= view.length;
  }

  clear(): void {
    this.views.clear();
    this.used = 0;
  }
}
