import type { Redactor, SecretSpan } from "@harnessx/core/extension";
import type { TextView } from "./text-view.js";

/** Bytes of context read on each side of a cut: more than the largest private key block. */
const BLOCK = 16 * 1024;
/** Windows whose secrets are remembered (a search shows many lines of one region). */
const MAX_WINDOWS = 8;

/**
 * Cuts of a spilled result (a slice, a search hit, a schema head) made safe to show on their
 * own: each is redacted with the agent's policy as part of the text around it (a window of
 * context on each side, aligned so that nearby cuts share it), and a secret the cut splits or
 * shows without its key or BEGIN line is replaced in the cut (`Redactor.redactCut`). What the cut
 * shows whole stays as stored: the model reads the real data, and the recording redacts it as
 * it redacts everything.
 */
export class SafeCuts {
  private readonly windows = new Map<string, { text: string; spans: SecretSpan[] }>();

  constructor(
    private readonly view: TextView,
    private readonly redactor: Redactor,
  ) {}

  /** The text between two byte offsets, as `view.text`, with what the cut orphans replaced. */
  text(from: number, to: number): string {
    const view = this.view;
    if (!this.redactor.enabled) return view.text(from, to);
    const start = view.boundary(from);
    const end = view.boundary(Math.min(to, view.length));
    const windowStart = view.boundary(Math.max(0, Math.floor(start / BLOCK) * BLOCK - BLOCK));
    const windowEnd = view.boundary(Math.min(view.length, Math.ceil(end / BLOCK) * BLOCK + BLOCK));
    const window = this.window(windowStart, Math.max(windowEnd, end));
    const base = view.charOfByte(windowStart);
    return this.redactor.redactCut(
      window.text,
      view.charOfByte(start) - base,
      view.charOfByte(end) - base,
      window.spans,
    );
  }

  private window(from: number, to: number): { text: string; spans: SecretSpan[] } {
    const key = `${from}:${to}`;
    let window = this.windows.get(key);
    if (window) {
      this.windows.delete(key);
    } else {
      const text = this.view.text(from, to);
      window = { text, spans: this.redactor.secretSpans(text) };
      if (this.windows.size >= MAX_WINDOWS) this.windows.delete(this.windows.keys().next().value!);
    }
    this.windows.set(key, window);
    return window;
  }
}
