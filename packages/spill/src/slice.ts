import { ReadResultError } from "./errors.js";
import type { TextView } from "./text-view.js";

export interface SliceRequest {
  unit: "lines" | "chars";
  /** Lines: first line number (from 1). Chars: offset (from 0). */
  start?: number;
  count?: number;
}

const DEFAULT_LINES = 200;

/** What a cut shows of the view between two byte offsets (`SafeCuts.text`; default: the text as stored). */
export type ShowText = (from: number, to: number) => string;

/**
 * A range of the view, capped at `maxChars`, with a header saying where it is and how to continue.
 * Offsets and sizes are the stored text's; what is shown passes `show`.
 */
export function sliceView(
  view: TextView,
  request: SliceRequest,
  maxChars: number,
  show: ShowText = (a, b) => view.text(a, b),
): string {
  const what = view.prettyJson ? "pretty-printed JSON" : "text";
  if (request.unit === "chars") return sliceChars(view, request, maxChars, what, show);
  const first = request.start ?? 1;
  if (first < 1) throw new ReadResultError("bad_range", `line numbers start at 1; got start=${first}.`);
  const count = request.count ?? DEFAULT_LINES;
  const total = view.lineCount;
  const from = view.lineStart(first);
  if (from < 0)
    throw new ReadResultError("bad_range", `start=${first} is past the end: the ${what} has ${total} lines.`);
  let pos = from;
  let line = first;
  let shownEnd = from;
  let used = 0;
  let cutNote = "";
  while (line < first + count && pos < view.length) {
    const end = view.lineEnd(pos);
    // Decode no more than the room left could show: a UTF-16 unit takes at most 3 bytes, so a
    // line cut short here is always too long, and a line of megabytes is never turned into a string.
    const text = view.text(pos, Math.min(end, pos + (maxChars - used) * 3 + 4));
    if (used + text.length + 1 > maxChars) {
      if (used === 0) {
        const shown = cutAt(text, maxChars);
        shownEnd = pos + Buffer.byteLength(shown);
        cutNote = `; line ${line} has ${view.charOfByte(end) - view.charOfByte(pos)} characters and was cut: read the rest with unit "chars", start=${view.charOfByte(pos) + shown.length}`;
        line++;
      }
      break;
    }
    used += text.length + 1;
    shownEnd = end;
    pos = end + 1;
    line++;
  }
  const last = line - 1;
  const next = last < total ? `; next: start=${last + 1}` : "; end of result";
  // The lines shown are one stretch of the text: it is shown (and made safe) as one cut.
  return `[lines ${first}-${last} of ${total} (${what})${cutNote || next}]\n${shownEnd > from ? show(from, shownEnd) : ""}`;
}

function sliceChars(view: TextView, request: SliceRequest, maxChars: number, what: string, show: ShowText): string {
  const start = request.start ?? 0;
  const count = Math.min(request.count ?? maxChars, maxChars);
  const total = view.charCount;
  if (start >= total && total > 0) {
    throw new ReadResultError(
      "bad_range",
      `start=${start} is past the end: the ${what} has ${total} characters (offsets 0-${total - 1}).`,
    );
  }
  const from = view.byteOfChar(start);
  // Exactly the characters asked for: a secret the range splits is replaced by `show`.
  const shown = cutAt(view.text(from, from + count * 4), count);
  const end = start + shown.length;
  const next = end < total ? `; next: unit "chars", start=${end}` : "; end of result";
  return `[chars ${start}-${end} of ${total} (${what})${next}]\n${show(from, from + Buffer.byteLength(shown))}`;
}

/** The first `count` UTF-16 units of `text`, one fewer rather than half a surrogate pair. */
function cutAt(text: string, count: number): string {
  if (text.length <= count) return text;
  const code = text.charCodeAt(count - 1);
  return text.slice(0, count - (code >= 0xd800 && code <= 0xdbff ? 1 : 0));
}
