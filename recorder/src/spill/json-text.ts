/**
 * Streaming helpers over JSON text that must not parse a 100 MB document into
 * objects: re-indenting (so one huge line pages by lines) and reading the first
 * elements of a top-level array (for previews). Both assume valid JSON.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isStructural(c: number): boolean {
  return c === COMMA || c === COLON || c === LBRACE || c === RBRACE || c === LBRACKET || c === RBRACKET || c === QUOTE || isWhitespace(c);
}

/** Index just past the string literal that opens at `open` (a quote). */
export function stringEnd(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let k = quote - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((quote - 1 - k) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Appends UTF-8 into a growing Buffer: millions of small pieces without millions of strings. */
class Utf8Writer {
  private buf: Buffer;
  private pos = 0;
  private readonly spaces = Buffer.alloc(256, 0x20);

  constructor(capacity: number) {
    this.buf = Buffer.allocUnsafe(Math.max(1024, capacity));
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + extra));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  byte(c: number): void {
    this.ensure(1);
    this.buf[this.pos++] = c;
  }

  newline(indent: number): void {
    this.ensure(1 + indent);
    this.buf[this.pos++] = 0x0a;
    for (let left = indent; left > 0; left -= this.spaces.length) {
      const n = Math.min(left, this.spaces.length);
      this.spaces.copy(this.buf, this.pos, 0, n);
      this.pos += n;
    }
  }

  text(source: string, from: number, to: number): void {
    this.ensure((to - from) * 3);
    this.pos += this.buf.write(source.slice(from, to), this.pos, "utf8");
  }

  toString(): string {
    return this.buf.toString("utf8", 0, this.pos);
  }
}

/**
 * Re-indents JSON text like `JSON.stringify(JSON.parse(text), null, indent)`, but in one
 * pass without building objects; numbers and string escapes stay as written.
 */
export function prettyPrintJson(text: string, indent = 2): string {
  const out = new Utf8Writer(Math.ceil(text.length * 1.6));
  const n = text.length;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      i++;
    } else if (c === LBRACE || c === LBRACKET) {
      let j = i + 1;
      while (j < n && isWhitespace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) === (c === LBRACE ? RBRACE : RBRACKET)) {
        out.byte(c);
        out.byte(text.charCodeAt(j));
        i = j + 1;
      } else {
        depth++;
        out.byte(c);
        out.newline(depth * indent);
        i++;
      }
    } else if (c === RBRACE || c === RBRACKET) {
      depth = Math.max(0, depth - 1);
      out.newline(depth * indent);
      out.byte(c);
      i++;
    } else if (c === COMMA) {
      out.byte(c);
      out.newline(depth * indent);
      i++;
    } else if (c === COLON) {
      out.byte(c);
      out.byte(0x20);
      i++;
    } else if (c === QUOTE) {
      const end = stringEnd(text, i);
      out.text(text, i, end);
      i = end;
    } else {
      let j = i + 1;
      while (j < n && !isStructural(text.charCodeAt(j))) j++;
      out.text(text, i, j);
      i = j;
    }
  }
  return out.toString();
}

/**
 * The source text of the first `limit` elements of the top-level array in `text`,
 * looking no further than `maxScan` characters (a preview never reads the whole result).
 */
export function firstArrayElements(text: string, limit: number, maxScan: number): string[] {
  const open = text.indexOf("[");
  const elements: string[] = [];
  if (open < 0) return elements;
  const end = Math.min(text.length, open + maxScan);
  let depth = 0;
  let start = -1;
  for (let i = open; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) continue;
    if (depth === 1 && start < 0 && c !== COMMA && c !== RBRACKET) start = i;
    if (c === QUOTE) {
      i = stringEnd(text, i) - 1;
    } else if (c === LBRACE || c === LBRACKET) {
      depth++;
    } else if (c === RBRACE || c === RBRACKET) {
      depth--;
      if (depth === 0) {
        if (start >= 0) elements.push(text.slice(start, i).trimEnd());
        break;
      }
    } else if (c === COMMA && depth === 1) {
      elements.push(text.slice(start, i).trimEnd());
      start = -1;
      if (elements.length >= limit) break;
    }
  }
  return elements;
}
