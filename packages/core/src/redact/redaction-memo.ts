/** Characters of texts remembered per generation (two generations are kept: up to twice this). */
const GENERATION_CHARS = 4 * 1024 * 1024;

/**
 * What a redaction policy made of texts it already redacted, so a text seen again (a tool
 * result echoed in the next request, a history resent) is not scanned again. Keyed by the
 * exact content, and redaction is a function of the content alone: every copy of a text gets
 * the same, redacted, result. Bounded: when a generation fills, the older one goes.
 */
export class RedactionMemo {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();
  private chars = 0;

  get(text: string): string | undefined {
    const known = this.current.get(text);
    if (known !== undefined) return known;
    const older = this.previous.get(text);
    if (older !== undefined) this.set(text, older);
    return older;
  }

  set(text: string, redacted: string): void {
    const cost = text === redacted ? text.length : text.length + redacted.length;
    if (cost > GENERATION_CHARS / 16) return;
    if (this.chars + cost > GENERATION_CHARS) {
      this.previous = this.current;
      this.current = new Map();
      this.chars = 0;
    }
    this.current.set(text, redacted);
    this.chars += cost;
  }
}

// Shared by every agent of the process: no one may patch it (see Redactor).
Object.freeze(RedactionMemo.prototype);
