import { ReadResultError } from "./errors.js";
import type { TextView } from "./text-view.js";

export interface SliceRequest {
  unit: "lines" | "chars";
  /** Lines: first line number (from 1). Chars: offset (from 0). */
  start?: number;
  count?: number;
}

const DEFAULT_LINES = 200;

function cutAtCodePoint(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/** A range of the view, capped at `maxChars`, with a header saying where it is and how to continue. */
export function sliceView(view: TextView, request: SliceRequest, maxChars: number): string {
  const what = view.prettyJson ? "pretty-printed JSON" : "text";
  if (request.unit === "chars") {
    const start = request.start ?? 0;
    const count = Math.min(request.count ?? maxChars, maxChars);
    if (start >= view.text.length && view.text.length > 0) {
      throw new ReadResultError("bad_range", `start=${start} is past the end: the ${what} has ${view.text.length} characters (offsets 0-${view.text.length - 1}).`);
    }
    const end = cutAtCodePoint(view.text, Math.min(view.text.length, start + count));
    const next = end < view.text.length ? `; next: unit "chars", start=${end}` : "; end of result";
    return `[chars ${start}-${end} of ${view.text.length} (${what})${next}]\n${view.text.slice(start, end)}`;
  }
  const first = request.start ?? 1;
  if (first < 1) throw new ReadResultError("bad_range", `line numbers start at 1; got start=${first}.`);
  const count = request.count ?? DEFAULT_LINES;
  const total = view.lineCount;
  const from = view.lineStart(first);
  if (from < 0) throw new ReadResultError("bad_range", `start=${first} is past the end: the ${what} has ${total} lines.`);
  let pos = from;
  let line = first;
  const parts: string[] = [];
  let used = 0;
  let cutNote = "";
  while (line < first + count && pos < view.text.length) {
    const end = view.lineEnd(pos);
    const length = end - pos;
    if (used + length + 1 > maxChars) {
      if (parts.length === 0) {
        const cut = cutAtCodePoint(view.text, pos + maxChars);
        parts.push(view.text.slice(pos, cut));
        cutNote = `; line ${line} is ${length} characters and was cut: read the rest with unit "chars", start=${cut}`;
        line++;
      }
      break;
    }
    parts.push(view.text.slice(pos, end));
    used += length + 1;
    pos = end + 1;
    line++;
  }
  const last = line - 1;
  const next = last < total ? `; next: start=${last + 1}` : "; end of result";
  return `[lines ${first}-${last} of ${total} (${what})${cutNote || next}]\n${parts.join("\n")}`;
}
