/**
 * The lines of a text as a key's lines survive in agent traffic: broken by real line ends, or by
 * escaped ones (`\n`, `\r\n`, `\\n`: a PEM block inside a JSON string, or a JSON string inside
 * another). Breaks in a row count as one. `visit(start, end)` gets each line's bounds; returning
 * false stops the walk.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a callback with a block body and no return infers void; the union lets it type-check
export function forEachLine(text: string, visit: (start: number, end: number) => boolean | void): void {
  const breaks = new RegExp(BREAK.source, "g");
  const adjacent = new RegExp(BREAK.source, "y");
  let start = 0;
  for (let found = breaks.exec(text); found; found = breaks.exec(text)) {
    if (found.index > start && visit(start, found.index) === false) return;
    // Breaks in a row count as one.
    adjacent.lastIndex = found.index + found[0].length;
    while (adjacent.exec(text)) breaks.lastIndex = adjacent.lastIndex;
    start = breaks.lastIndex;
  }
  if (start < text.length) visit(start, text.length);
}

/** A line break: a real one, or backslashes then `n` or `r` (escaped once or more). */
const BREAK = /[\r\n]|\\+[nr]/;

/** True when `text` has line breaks (real or escaped) for `lines` lines at least: a cheap check before `forEachLine`. */
export function hasLines(text: string, lines: number): boolean {
  let at = -1;
  for (let i = 1; i < lines; i++) {
    at = text.indexOf("\n", at + 1);
    if (at < 0) return text.includes("\\n") || text.includes("\\r") || text.includes("\r");
  }
  return true;
}

/** True for a character of standard base64 (`A-Z a-z 0-9 + /`). */
export function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
}

/**
 * Where the base64 of a line is, when the line ends with it: after nothing but a grep-style line
 * number (`12:` or `12-`, as `read_result` search prints), indentation or an opening quote
 * (`loose` false), or after other text ending in a quote, a space, `:` or `>` (`loose`: the first
 * line of a key inside a JSON string), and before `=` padding and closing quotes, brackets, commas
 * or ` +` (a key spelled out in source code). Undefined for any other line.
 */
export function base64Core(
  text: string,
  start: number,
  end: number,
): { start: number; end: number; padded: boolean; loose: boolean } | undefined {
  let i = end;
  while (i > start && isTrailer(text.charCodeAt(i - 1))) i--;
  // `"...." +`: a line of a key spelled out in code (a `+` right after base64 is base64).
  if (text.charCodeAt(i - 1) === 43 && i - 2 >= start && isFiller(text.charCodeAt(i - 2)))
    while (i > start && (isTrailer(text.charCodeAt(i - 1)) || text.charCodeAt(i - 1) === 43)) i--;
  const coreEnd = i;
  while (i > start && text.charCodeAt(i - 1) === 61) i--;
  const bodyEnd = i;
  while (i > start && isBase64Char(text.charCodeAt(i - 1))) i--;
  if (i === bodyEnd) return undefined;
  const core = { start: i, end: coreEnd, padded: coreEnd > bodyEnd, loose: false };
  // What comes before: a line number (`grep -n`'s `12:` or `12-`, `cat -n`'s right-aligned `    12<tab>`), then filler, is a line of its own.
  let j = start;
  while (j < i && j - start < 8 && text.charCodeAt(j) === 32) j++;
  const digits = j;
  while (j < i && j - digits < 10 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
  const separator = text.charCodeAt(j);
  if (j > digits && j < i && (separator === 58 || separator === 45 || separator === 9)) j++;
  else j = start;
  while (j < i && isFiller(text.charCodeAt(j))) j++;
  if (j === i) return core;
  const before = text.charCodeAt(i - 1);
  return before === 34 || before === 39 || before === 32 || before === 58 || before === 62
    ? { ...core, loose: true }
    : undefined;
}

/** Space, tab, quotes and backslash (the escape before a quote): what surrounds a line of base64. */
function isFiller(c: number): boolean {
  return c === 32 || c === 9 || c === 34 || c === 39 || c === 96 || c === 92;
}

/** What may close a line of base64: filler, and `,` `;` `)` `]` `}` (code, JSON). */
function isTrailer(c: number): boolean {
  return isFiller(c) || c === 44 || c === 59 || c === 41 || c === 93 || c === 125;
}
