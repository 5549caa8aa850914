/** Characters of strings remembered per generation (two generations are kept: up to twice this). */
const GENERATION_CHARS = 8 * 1024 * 1024;

/**
 * Strings a redaction policy already found clean (nothing to replace), so a text seen again
 * (a tool result echoed in the next request, a history resent) is not scanned again. Only
 * clean verdicts are kept, keyed by the exact content: a string with a secret is never in
 * here, so every copy of it is redacted. Bounded: when a generation fills, the older one goes.
 */
export class CleanTexts {
  private current = new Set<string>();
  private previous = new Set<string>();
  private chars = 0;

  has(text: string): boolean {
    if (this.current.has(text)) return true;
    if (!this.previous.has(text)) return false;
    this.add(text);
    return true;
  }

  add(text: string): void {
    if (text.length > GENERATION_CHARS / 16) return;
    if (this.chars + text.length > GENERATION_CHARS) {
      this.previous = this.current;
      this.current = new Set();
      this.chars = 0;
    }
    this.current.add(text);
    this.chars += text.length;
  }
}
