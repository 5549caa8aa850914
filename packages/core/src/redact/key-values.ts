import type { Span } from "./detector.js";
import { hidesValue, PLAIN, type KeyKind } from "./key-names.js";

/**
 * A key used as one inside text: `key: v`, `"key": "v"`, `key=v`, `\"key\":\"v\"` (JSON inside a
 * string), up to three words (`my api key: v`). The separator may be surrounded by spaces, tabs
 * or no-break spaces, never by a line break (the next line is not the value). Not the last
 * segment of a path (`node_modules/cookie`). Keys may be written in any alphabet (`contraseña:`);
 * only an ASCII word character before one joins it, since text without spaces (Chinese, Thai, an
 * emoji's variation selector) may run right into a key.
 */
const KEY_AT =
  /(?<![A-Za-z0-9_/-])(\p{L}[\p{L}\p{M}\p{N}_-]{0,63}(?:[ \u00a0]\p{L}[\p{L}\p{M}\p{N}_-]{0,63}){0,2})(\\*["']?)[ \t\u00a0]*[:=][ \t\u00a0]*/gu;

/** `password hunter2`, `the token is 8f3k...`: a secret named in prose, without a separator (not an option: `--token --verbose`). */
const PROSE =
  /\b(?:password|passwd|passphrase|pwd|secret|token|api[ _-]?key)[ \t\u00a0]+(?:(?:is|was|=|:)[ \t\u00a0]+)?([^\s"'<>`-][^\s"'<>`]{3,})/gi;

/** A long command-line option and its value: `--password=v`, `--token v`, `--api-key "v"` (never `-p`: too many meanings). */
const FLAG = /(?<![\w-])--(\p{L}[\p{L}\p{M}\p{N}_-]{1,63})(?:=|[ \t]+)(?=[^\s-])("[^"\n]*"|'[^'\n]*'|[^\s"']+)/gu;

/** An XML element: `<password>v</password>`, `<apiKey>v</apiKey>` (attributes allowed). */
const ELEMENT = /<(\p{L}[\p{L}\p{M}\p{N}_.-]{0,63})(?:[ \t][^<>]*)?>([^<]*)<\/\1>/gu;

/** A named setting as attributes: `<add key="ClearTextPassword" value="v"/>` (NuGet, .NET app.config). */
const ATTRIBUTE_PAIR = /\bkey=(["'])([^"'<>]{1,64})\1[ \t]+value=(["'])([^"'<>\n]*)\3/g;

const OPENERS: Record<string, string> = { "[": "]", "(": ")", "{": "}", "<": ">" };

/**
 * Where the values of sensitive keys are in `text`, each span named by its key. A quoted value yields its inside (the quotes
 * stay), a bracketed one the whole bracket, an unquoted one everything to the end of the line or
 * of the enclosing string: over-redacting a connection string's tail beats leaking it. Options
 * (`--password v`), XML elements and `key="..." value="..."` pairs count as keys too.
 */
export function keyValueSpans(text: string, kindOf: (key: string) => KeyKind, near?: readonly number[]): Span[] {
  const spans: Span[] = [];
  const add = (kind: KeyKind, start: number, end: number, name: string, anchor: number) => {
    if (end > start && hidesValue(kind, text.slice(start, end))) spans.push({ start, end, name, anchor });
  };
  // Only the lines where a key was seen (`near`), or the whole text: `name:` is everywhere in code.
  let done = 0;
  for (const [from, to] of near ? linesAround(text, near) : [[0, text.length]]) {
    KEY_AT.lastIndex = Math.max(from, done);
    let match: RegExpExecArray | null;
    for (match = KEY_AT.exec(text); match && match.index < to; match = KEY_AT.exec(text)) {
      const kind = kindOf(match[1]);
      if (kind === PLAIN) continue;
      const start = match.index + match[0].length;
      const before = match.index > 0 ? text[match.index - 1] : "";
      const span =
        valueSpan(text, start, match[2] !== "", before === "?" || before === "&") ??
        indentedBlock(text, match.index, start);
      if (span) {
        add(kind, span.start, span.end, keyName(match[1], kindOf), match.index);
        KEY_AT.lastIndex = Math.max(KEY_AT.lastIndex, span.end);
      }
    }
    // A key found past this line is the next line's to take (`a=1\nb=2`): scanning goes on from it, not after it.
    done = Math.max(done, to, match ? match.index : text.length);
  }
  for (const match of text.matchAll(FLAG)) {
    const kind = match[1].startsWith("no-") ? PLAIN : kindOf(match[1]);
    const quoted = /^["']/.test(match[2]) ? 1 : 0;
    const start = match.index + match[0].length - match[2].length + quoted;
    add(kind, start, start + match[2].length - 2 * quoted, match[1], match.index);
  }
  if (text.includes("<")) {
    for (const match of text.matchAll(ELEMENT)) {
      const start = match.index + match[0].indexOf(">") + 1;
      add(kindOf(match[1]), start, start + match[2].length, match[1], match.index);
    }
    for (const match of text.matchAll(ATTRIBUTE_PAIR)) {
      const end = match.index + match[0].length - 1;
      add(kindOf(match[2]), end - match[4].length, end, match[2], match.index);
    }
  }
  PROSE.lastIndex = 0;
  for (const match of text.matchAll(PROSE)) {
    const value = match[1].replace(/[.,;:!?)\]]+$/, "");
    if (!looksSecret(value)) continue;
    const start = match.index + match[0].length - match[1].length;
    spans.push({
      start,
      end: start + value.length,
      name: match[0]
        .slice(0, match[0].length - match[1].length)
        .trim()
        .split(/[ \t\u00a0]/)[0],
      anchor: match.index,
    });
  }
  return spans;
}

/**
 * A key's name for its replacement: the fewest last words that are still sensitive (`my api key`
 * -> `api key`). A word before them may be a value this pass hides (`password hunter2 token=`),
 * and a replacement may write the name out (`trace scrub`'s pseudonyms).
 */
function keyName(key: string, kindOf: (key: string) => KeyKind): string {
  const separators = Array.from(key.matchAll(/[ \u00a0]/g), (separator) => separator.index);
  for (let i = separators.length - 1; i >= 0; i--) {
    const tail = key.slice(separators[i] + 1);
    if (kindOf(tail) !== PLAIN) return tail;
  }
  return key;
}

/** The lines (bounds) holding the offsets `at`, in order, each once. */
function linesAround(text: string, at: readonly number[]): Array<[number, number]> {
  const lines: Array<[number, number]> = [];
  for (const offset of at) {
    if (lines.length > 0 && offset < lines[lines.length - 1][1]) continue;
    const end = text.indexOf("\n", offset);
    lines.push([text.lastIndexOf("\n", offset - 1) + 1, end < 0 ? text.length : end]);
  }
  return lines;
}

function valueSpan(
  text: string,
  start: number,
  quotedKey: boolean,
  inQuery: boolean,
): { start: number; end: number } | undefined {
  const quote = /^(\\*)(["'])/.exec(text.slice(start, start + 8));
  if (quote) {
    const open = start + quote[0].length;
    const end = closingQuote(text, open, quote[2], quote[1].length);
    return end > open ? { start: open, end } : undefined;
  }
  const closer = OPENERS[text[start]];
  if (closer) {
    // A bracket that ends its line opens a block (pretty-printed JSON): the value is the whole block.
    const end = /^[ \t]*\r?\n/.test(text.slice(start + 1, start + 80))
      ? matchingBlock(text, start, text[start], closer)
      : matching(text, start, text[start], closer);
    return { start, end };
  }
  let end = start;
  while (end < text.length) {
    const c = text[end];
    if (c === "\n" || c === "\r" || c === '"' || c === "\\") break;
    if (
      (inQuery && (c === "&" || c === "#" || c === " ")) ||
      (quotedKey && (c === "," || c === "}" || c === "]" || c === " "))
    )
      break;
    end++;
  }
  while (end > start && /\s/.test(text[end - 1])) end--;
  return end > start ? { start, end } : undefined;
}

/**
 * A YAML key with its value on the lines below (`secrets:` then `  - v`): the lines indented
 * deeper than the key's. Undefined unless the key ends its line.
 */
function indentedBlock(text: string, keyAt: number, start: number): { start: number; end: number } | undefined {
  if (text[start] !== "\n" && text[start] !== "\r") return undefined;
  const lineStart = text.lastIndexOf("\n", keyAt - 1) + 1;
  const indent = indentation(text, lineStart);
  let end = start;
  for (let at = start; at < text.length; ) {
    const from = at + (text[at] === "\r" && text[at + 1] === "\n" ? 2 : 1);
    let lineEnd = text.indexOf("\n", from);
    if (lineEnd < 0) lineEnd = text.length;
    if (text[lineEnd - 1] === "\r") lineEnd--;
    const depth = indentation(text, from);
    if (from + depth < lineEnd) {
      // YAML lets a list sit at its key's own indentation (`secrets:` then `- v`).
      if (depth < indent || (depth === indent && !(text[from + depth] === "-" && text[from + depth + 1] === " ")))
        break;
      end = lineEnd;
    }
    at = lineEnd;
  }
  const first = start + /^\s*/.exec(text.slice(start, end))![0].length;
  return end > first ? { start: first, end } : undefined;
}

/** Spaces and tabs at `from`. */
function indentation(text: string, from: number): number {
  let i = from;
  while (text[i] === " " || text[i] === "\t") i++;
  return i - from;
}

/** The next `quote` preceded by exactly `backslashes` backslashes (an inner escape has more), or the end of the line. */
function closingQuote(text: string, from: number, quote: string, backslashes: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "\n" || c === "\r") return i;
    if (c !== quote) continue;
    let run = 0;
    while (i - 1 - run >= from && text[i - 1 - run] === "\\") run++;
    if (run === backslashes) return i - backslashes;
  }
  return text.length;
}

/** The end (exclusive) of a bracketed value, nesting counted; the end of the line when it never closes. */
function matching(text: string, start: number, open: string, close: string): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "\n" || c === "\r") return i;
    if (c === open) depth++;
    else if (c === close && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The end (exclusive) of a bracketed block over several lines, nesting counted and strings skipped; the end of the text when it never closes. */
function matchingBlock(text: string, start: number, open: string, close: string): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === open) depth++;
    else if (c === close && --depth === 0) return i + 1;
  }
  return text.length;
}

/** Prose after a keyword is a secret when it does not read like a word: digits, symbols, inner capitals, or length. */
function looksSecret(value: string): boolean {
  if (value.length >= 16) return true;
  return value.length >= 6 && (/\d/.test(value) || /[^A-Za-z]/.test(value) || /[a-z][A-Z]/.test(value));
}
