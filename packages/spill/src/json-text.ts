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

/**
 * Re-indents JSON like `JSON.stringify(JSON.parse(text), null, indent)`, but in one pass
 * over the UTF-8 bytes without building objects; numbers and string escapes stay as written.
 * Structural characters are ASCII, so multi-byte characters are copied through untouched.
 */
export function prettyPrintJson(json: string | Uint8Array, indent = 2): Buffer {
  const src = typeof json === "string" ? Buffer.from(json, "utf8") : json;
  const n = src.length;
  // Locals only (no closures) in the hot loop: captured variables would live in a slow context object.
  let out: Buffer = Buffer.allocUnsafe(Math.ceil(n * 1.8) + 1024);
  let o = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < n; i++) {
    const c = src[i];
    if (o + depth * indent + 8 > out.length) out = grown(out, o, depth * indent + 8);
    if (inString) {
      out[o++] = c;
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c === QUOTE) {
      inString = true;
      out[o++] = c;
    } else if (c === COMMA) {
      out[o++] = c;
      out[o++] = 0x0a;
      for (let k = depth * indent; k > 0; k--) out[o++] = 0x20;
    } else if (c === COLON) {
      out[o++] = c;
      out[o++] = 0x20;
    } else if (c === LBRACE || c === LBRACKET) {
      let j = i + 1;
      while (j < n && isWhitespace(src[j])) j++;
      out[o++] = c;
      if (src[j] === (c === LBRACE ? RBRACE : RBRACKET)) {
        out[o++] = src[j];
        i = j;
      } else {
        depth++;
        if (o + depth * indent + 8 > out.length) out = grown(out, o, depth * indent + 8);
        out[o++] = 0x0a;
        for (let k = depth * indent; k > 0; k--) out[o++] = 0x20;
      }
    } else if (c === RBRACE || c === RBRACKET) {
      if (depth > 0) depth--;
      out[o++] = 0x0a;
      for (let k = depth * indent; k > 0; k--) out[o++] = 0x20;
      out[o++] = c;
    } else {
      out[o++] = c;
    }
  }
  return out.subarray(0, o);
}

function grown(out: Buffer, used: number, extra: number): Buffer {
  const next = Buffer.allocUnsafe(Math.max(out.length * 2, used + extra));
  out.copy(next, 0, 0, used);
  return next;
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
