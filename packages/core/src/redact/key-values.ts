import type { Span } from "./detector.js";

/**
 * A key used as one inside text: `key: v`, `"key": "v"`, `key=v`, `\"key\":\"v\"` (JSON inside a
 * string), up to three words (`my api key: v`). The separator may be surrounded by spaces, tabs
 * or no-break spaces, never by a line break (the next line is not the value).
 */
const KEY_AT = /(?<![A-Za-z0-9_-])([A-Za-z][A-Za-z0-9_-]{0,63}(?:[ \u00a0][A-Za-z][A-Za-z0-9_-]{0,63}){0,2})(\\*["']?)[ \t\u00a0]*[:=][ \t\u00a0]*/g;

/** `password hunter2`, `the token is 8f3k...`: a secret named in prose, without a separator. */
const PROSE = /\b(?:password|passwd|passphrase|pwd|secret|token|api[ _-]?key)[ \t\u00a0]+(?:(?:is|was|=|:)[ \t\u00a0]+)?([^\s"'<>`]{4,})/gi;

const OPENERS: Record<string, string> = { "[": "]", "(": ")", "{": "}", "<": ">" };

/**
 * Where the values of sensitive keys are in `text`, each span named by its key. A quoted value yields its inside (the quotes
 * stay), a bracketed one the whole bracket, an unquoted one everything to the end of the line or
 * of the enclosing string: over-redacting a connection string's tail beats leaking it.
 */
export function keyValueSpans(text: string, isSensitiveKey: (key: string) => boolean): Span[] {
  const spans: Span[] = [];
  KEY_AT.lastIndex = 0;
  for (let match = KEY_AT.exec(text); match; match = KEY_AT.exec(text)) {
    if (!isSensitiveKey(match[1])) continue;
    const start = match.index + match[0].length;
    const before = match.index > 0 ? text[match.index - 1] : "";
    const span = valueSpan(text, start, match[2] !== "", before === "?" || before === "&");
    if (span) {
      spans.push({ ...span, name: match[1] });
      KEY_AT.lastIndex = Math.max(KEY_AT.lastIndex, span.end);
    }
  }
  PROSE.lastIndex = 0;
  for (const match of text.matchAll(PROSE)) {
    const value = match[1].replace(/[.,;:!?)\]]+$/, "");
    if (!looksSecret(value)) continue;
    const start = match.index + match[0].length - match[1].length;
    spans.push({ start, end: start + value.length, name: match[0].slice(0, match[0].length - match[1].length).trim().split(/[ \t\u00a0]/)[0] });
  }
  return spans;
}

function valueSpan(text: string, start: number, quotedKey: boolean, inQuery: boolean): { start: number; end: number } | undefined {
  const quote = /^(\\*)(["'])/.exec(text.slice(start, start + 8));
  if (quote) {
    const open = start + quote[0].length;
    const end = closingQuote(text, open, quote[2], quote[1].length);
    return end > open ? { start: open, end } : undefined;
  }
  const closer = OPENERS[text[start]];
  if (closer) {
    const end = matching(text, start, text[start], closer);
    return { start, end };
  }
  let end = start;
  while (end < text.length) {
    const c = text[end];
    if (c === "\n" || c === "\r" || c === '"' || c === "\\") break;
    if ((inQuery && (c === "&" || c === "#" || c === " ")) || (quotedKey && (c === "," || c === "}" || c === "]" || c === " "))) break;
    end++;
  }
  while (end > start && /\s/.test(text[end - 1])) end--;
  return end > start ? { start, end } : undefined;
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

/** Prose after a keyword is a secret when it does not read like a word: digits, symbols, inner capitals, or length. */
function looksSecret(value: string): boolean {
  if (value.length >= 16) return true;
  return value.length >= 6 && (/\d/.test(value) || /[^A-Za-z]/.test(value) || /[a-z][A-Z]/.test(value));
}
