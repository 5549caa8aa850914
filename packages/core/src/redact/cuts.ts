/** Where redaction replaces part of a text (see `Redactor.secretSpans`). */
export interface SecretSpan {
  /** Offset of the secret's first character. */
  start: number;
  /** Offset just past the secret. */
  end: number;
  /** The shape or key found there. */
  name: string;
  /** Offset of what identifies it, at or before `start`: the key of a value, the BEGIN line of a key. */
  anchor: number;
  /** True for the value of a sensitive key, false for a secret shape. */
  keyed: boolean;
}

/** Spans in order, overlapping ones merged (the first name kept, the earliest anchor). */
export function mergeSecretSpans(found: SecretSpan[]): SecretSpan[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretSpan[] = [];
  for (const span of found) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      last.anchor = Math.min(last.anchor, span.anchor);
    } else merged.push({ ...span });
  }
  return merged;
}

/** `text.slice(from, to)` with each span the cut splits or leaves without its anchor replaced (see `Redactor.redactCut`). */
export function cutWithSecrets(
  text: string,
  from: number,
  to: number,
  spans: readonly SecretSpan[],
  replace: { shape(name: string, found: string): string; key(key: string, found: string): string },
): string {
  let out = "";
  let at = from;
  for (const span of spans) {
    if (span.end <= at || span.start >= to) continue;
    // Shown whole with its anchor (which is at or before its start): the sink redacts it.
    if (span.anchor >= from && span.end <= to) continue;
    const start = Math.max(span.start, at);
    const end = Math.min(span.end, to);
    const found = text.slice(start, end);
    out += text.slice(at, start) + (span.keyed ? replace.key(span.name, found) : replace.shape(span.name, found));
    at = end;
  }
  return out + text.slice(at, to);
}
