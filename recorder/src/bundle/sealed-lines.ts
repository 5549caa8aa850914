import type { RecordedEvent } from "../format/event.js";
import { EVENT_SCHEMA, parseChecked } from "../format/validate.js";
import { checkEventLine } from "../format/read-limits.js";
import { KINDS_COUNTED_BY_ATTRS } from "../format/run-summary.js";

/**
 * What the manifest needs of one line: the event itself when its attributes or references
 * matter, else only its kind and time (a line confirmed from its first bytes, never decoded whole).
 */
export type LineFacts = { event: RecordedEvent } | { kind: string; ts: number };

// JSON grammar pieces, for the first fields of a line as `JSON.stringify` writes every event.
// Bytes are read as latin1 (one char per byte): UTF-8 never puts `"` or `\` inside a multi-byte
// character, so a string's bounds are found exactly whatever it holds.
const CHAR = String.raw`(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})`;
const STRING = `"${CHAR}*"`;
const NUMBER = String.raw`-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?`;
/** The kind is read from the bytes only when it needs no decoding: printable ASCII without `"` or `\`. */
const PLAIN_KIND = String.raw`[\u0020\u0021\u0023-\u005b\u005d-\u007e]+`;
const HEAD = new RegExp(
  `^\\{"v":1,"seq":(${NUMBER}),"ts":(${NUMBER}),"runId":"${CHAR}+",` +
    `"spanId":(?:null|${STRING}),"parentSpanId":(?:null|${STRING}),"kind":"(${PLAIN_KIND})","attrs":\\{`,
);
/** Longest head read to match HEAD; a longer one (huge ids) is decoded whole instead. */
const HEAD_BYTES = 1024;
const CLOSE_BRACE = 0x7d;
const NEWLINE = 0x0a;
/** Every artifact reference (`payloadRef.sha256`, `attrs.sha256`, `attrs.artifacts[].sha256`) has this key. */
const SHA256_KEY = Buffer.from('"sha256"');
/**
 * How every line starts. A second one inside a line is what a torn write followed by more lines
 * looks like (or an event object nested in a payload): such a line is decoded whole.
 */
const LINE_START = Buffer.from('{"v":1,"seq":');

/**
 * The facts of every line of a verified sealed segment, or undefined when a line is not an
 * event (the caller then re-encodes the segment from its good events, as before).
 *
 * Decoding every line cost more than the rest of the export together. A verified seal says the
 * bytes are those the recorder sealed, and the recorder writes each event with `JSON.stringify`
 * in a fixed key order; so a line is taken from its first bytes when they are exactly that
 * (`{"v":1,"seq":N,"ts":N,"runId":"...",...,"kind":"...","attrs":{`, a finite ts, a whole seq
 * > 0) and it ends with `}`. Every other line is decoded and checked whole, and so is every line
 * whose attributes the manifest reads: counted kinds, and lines holding a `"sha256"` key (found
 * by one byte search of the segment), so the totals, drop gaps and artifact list are exact.
 * What is trusted without decoding is the middle of such a line (attrs onward) being well-formed
 * JSON: the recorder writes whole lines, sealing cuts a torn last one, and a torn line followed
 * by more writes holds a second line start (above). A seal's sha256 rules out later damage.
 * A line a reader refuses (`checkEventLine`) is an `EventLineTooLongError`: no bundle may hold it.
 */
export function sealedLineFacts(content: Buffer): LineFacts[] | undefined {
  const facts: LineFacts[] = [];
  let nextSha = content.indexOf(SHA256_KEY);
  let nextStart = content.indexOf(LINE_START, 1);
  for (let start = 0; start < content.byteLength; ) {
    const newline = content.indexOf(NEWLINE, start);
    const end = newline === -1 ? content.byteLength : newline;
    if (end > start) {
      checkEventLine(content, start, end, facts.length + 1);
      if (nextSha !== -1 && nextSha < start) nextSha = content.indexOf(SHA256_KEY, start);
      if (nextStart !== -1 && nextStart <= start) nextStart = content.indexOf(LINE_START, start + 1);
      const decodeWhole = (nextSha !== -1 && nextSha < end) || (nextStart !== -1 && nextStart < end);
      const quick = decodeWhole ? undefined : headFacts(content, start, end);
      if (quick) facts.push(quick);
      else {
        const parsed = parseChecked<RecordedEvent>(content.toString("utf8", start, end), EVENT_SCHEMA);
        if (!("value" in parsed)) return undefined;
        facts.push({ event: parsed.value });
      }
    }
    start = end + 1;
  }
  return facts;
}

/** Kind and ts from a line's first bytes, when they are as the recorder writes them; else undefined (decode it). */
function headFacts(content: Buffer, start: number, end: number): { kind: string; ts: number } | undefined {
  if (content[end - 1] !== CLOSE_BRACE) return undefined;
  const match = HEAD.exec(content.toString("latin1", start, Math.min(end, start + HEAD_BYTES)));
  if (!match) return undefined;
  const seq = Number(match[1]);
  const ts = Number(match[2]);
  const kind = match[3];
  // The totals read these kinds' attributes (and a drop's count makes the gaps): their lines are decoded whole.
  if (!Number.isSafeInteger(seq) || seq <= 0 || !Number.isFinite(ts) || KINDS_COUNTED_BY_ATTRS.has(kind))
    return undefined;
  return { kind, ts };
}
