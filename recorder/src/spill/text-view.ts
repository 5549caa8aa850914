/**
 * The text `slice` and `search` read: JSON pretty-printed (so one huge line pages
 * properly), every other kind as stored. Lines are numbered from 1.
 */
export class TextView {
  private lines?: number;

  constructor(
    readonly text: string,
    /** True when the text is a re-indented JSON document. */
    readonly prettyJson: boolean,
  ) {}

  get lineCount(): number {
    if (this.lines === undefined) {
      let count = this.text.length === 0 ? 0 : 1;
      for (let at = this.text.indexOf("\n"); at >= 0; at = this.text.indexOf("\n", at + 1)) count++;
      if (this.text.endsWith("\n")) count--;
      this.lines = count;
    }
    return this.lines;
  }

  /** Offset where line `line` (1-based) starts, or -1 past the end. */
  lineStart(line: number): number {
    let pos = 0;
    for (let l = 1; l < line; l++) {
      const nl = this.text.indexOf("\n", pos);
      if (nl < 0 || nl + 1 >= this.text.length) return -1;
      pos = nl + 1;
    }
    return pos;
  }

  /** End of the line containing `offset` (exclusive, before the newline). */
  lineEnd(offset: number): number {
    const nl = this.text.indexOf("\n", offset);
    return nl < 0 ? this.text.length : nl;
  }

  /** Start of the line containing `offset`. */
  lineStartAt(offset: number): number {
    return offset === 0 ? 0 : this.text.lastIndexOf("\n", offset - 1) + 1;
  }
}

/** Least-recently-used views kept under a budget of characters. */
export class ViewCache {
  private readonly views = new Map<string, TextView>();
  private chars = 0;

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
    if (view.text.length > this.budget) return;
    this.views.set(key, view);
    this.chars += view.text.length;
    for (const [oldest, old] of this.views) {
      if (this.chars <= this.budget) break;
      this.views.delete(oldest);
      this.chars -= old.text.length;
    }
  }

  delete(key: string): void {
    const view = this.views.get(key);
    if (!view) return;
    this.views.delete(key);
    this.chars -= view.text.length;
  }

  clear(): void {
    this.views.clear();
    this.chars = 0;
  }
}
