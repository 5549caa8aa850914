import type { Detector, Span } from "./detector.js";
import { keyBodyRuns, MIN_RUN_LINES } from "./key-body.js";
import { base64Core, forEachLine, hasLines, isBase64Char } from "./text-lines.js";

const BEGIN = /-{4,5} ?BEGIN [A-Z0-9 ]{0,40}?PRIVATE KEY(?: BLOCK)? ?-{4,5}/gi;
const END = /-{4,5} ?END [A-Z0-9 ]{0,40}?PRIVATE KEY(?: BLOCK)? ?-{4,5}/gi;
const PUTTY_PRIVATE = /Private-Lines: *\d+/g;
const PUTTY_MAC = /Private-(?:MAC|Hash): *[0-9a-fA-F]+/g;
/** Base64 of `-----BEGIN` (a PEM file encoded again: kubeconfig `client-key-data`, Kubernetes secrets). */
const ENCODED_PEM = /LS0tLS1CRUdJTi[A-Za-z0-9+/]*={0,2}/g;
/** A line left with only a search hit's line number (`27-`), the END line following it. */
const LINE_NUMBER_ONLY = /^\d{1,9}[:-]?\s*$/;
/** PEM headers an encrypted key carries between its BEGIN line and its body. */
const PEM_HEADER = /^\s*(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset): /;

/**
 * Private keys, whole or cut: a BEGIN line of any private key (RSA, EC, DSA, OPENSSH, ENCRYPTED,
 * PGP PRIVATE KEY BLOCK, SSH2) makes everything up to its END line secret, or, when a cut left
 * the END out, up to the end of the string it is in (the first quote) or of the text; an END line
 * without its BEGIN takes the key lines before it; PuTTY's `Private-Lines` to its MAC; a PEM key
 * encoded in base64 again. A cut never hides a key by cutting off the line that named it.
 */
export function privateKeyBlocks(text: string): Span[] {
  const spans: Span[] = [];
  BEGIN.lastIndex = 0;
  for (let begin = BEGIN.exec(text); begin; begin = BEGIN.exec(text)) {
    const after = begin.index + begin[0].length;
    END.lastIndex = after;
    const end = END.exec(text);
    const stop = end ? end.index + end[0].length : endOfString(text, after);
    spans.push({ start: begin.index, end: stop, name: "privatekey" });
    BEGIN.lastIndex = stop;
  }
  END.lastIndex = 0;
  for (let end = END.exec(text); end; end = END.exec(text)) {
    if (spans.some((s) => s.start <= end.index && end.index < s.end)) continue;
    spans.push({ start: keyLinesBefore(text, end.index), end: end.index + end[0].length, name: "privatekey" });
  }
  PUTTY_PRIVATE.lastIndex = 0;
  for (let lines = PUTTY_PRIVATE.exec(text); lines; lines = PUTTY_PRIVATE.exec(text)) {
    PUTTY_MAC.lastIndex = lines.index;
    const mac = PUTTY_MAC.exec(text);
    const stop = mac ? mac.index + mac[0].length : endOfString(text, lines.index);
    spans.push({ start: lines.index, end: stop, name: "privatekey" });
    PUTTY_PRIVATE.lastIndex = stop;
  }
  ENCODED_PEM.lastIndex = 0;
  for (const encoded of text.matchAll(ENCODED_PEM)) {
    // The whole run: a bundle may hold a certificate before its key.
    const decoded = Buffer.from(encoded[0], "base64").toString("latin1");
    if (/PRIVATE KEY/.test(decoded))
      spans.push({ start: encoded.index, end: encoded.index + encoded[0].length, name: "privatekey" });
  }
  return spans;
}

/** The end of the string a block starts in: its first quote, else the end of the text. */
function endOfString(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39 || c === 96) return i;
  }
  return text.length;
}

/** Where the key lines (base64 and PEM headers, blank lines between) that end just before `at` begin. */
function keyLinesBefore(text: string, at: number): number {
  // An indented END line: its indentation is not a line of its own that would end the key lines.
  let lineStart = at;
  while (lineStart > 0 && (text.charCodeAt(lineStart - 1) === 32 || text.charCodeAt(lineStart - 1) === 9)) lineStart--;
  let first = at;
  forEachLine(text.slice(0, lineStart), (start, end) => {
    const line = text.slice(start, Math.min(end, start + 40));
    const core = base64Core(text, start, end);
    if (core || PEM_HEADER.test(line) || LINE_NUMBER_ONLY.test(line)) {
      // A line with text before its base64 (`"key":"MIIE...`) gives only its base64.
      if (first === at) first = core?.loose ? core.start : start;
    } else first = at;
  });
  return first;
}

/** Hint literals: a text holding none of these holds no block or tail. */
const BLOCK_HINTS = ["-----begin", "---- begin", "-----end", "---- end", "private-lines:", "ls0tls1crudjti"];

/** Lines of key material need at least three lines of 64 characters. */
const RUN_CHARS = 3 * 64;
/**
 * True when `text` has 64 base64 characters in a row: most texts have no line of key material,
 * and skip the walk over their lines. Each window is read from its end, so a text of words is
 * crossed a word at a time.
 */
function hasFullLine(text: string): boolean {
  for (let start = 0; start + 64 <= text.length; ) {
    let i = start + 63;
    while (i >= start && isBase64Char(text.charCodeAt(i))) i--;
    if (i < start) return true;
    start = i + 1;
  }
  return false;
}

/** The private-key shapes of the default policy, whole and cut (see `privateKeyBlocks`, `keyBodyRuns`). */
export const PRIVATE_KEY_SHAPES: readonly Detector[] = [
  { name: "privatekey", hint: BLOCK_HINTS, find: privateKeyBlocks },
  {
    name: "key-body",
    hint: (lower) => lower.length >= RUN_CHARS && hasFullLine(lower) && hasLines(lower, MIN_RUN_LINES),
    find: keyBodyRuns,
  },
];
