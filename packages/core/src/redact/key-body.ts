import type { Span } from "./detector.js";
import { base64Core, forEachLine } from "./text-lines.js";

/**
 * Line widths of armored key material: 64 (PEM, PGP), 70 (OpenSSH, SSH2), 76 (MIME-style base64).
 */
const WIDTHS = new Set([64, 70, 76]);

/**
 * Full-width lines in a row that make a run of key material without a header. Three: a search
 * hit shows its line and one on each side, so any hit inside a key body shows three; the
 * smallest keys (EC, Ed25519) have fewer full lines, but their BEGIN and END lines are then
 * never far. Ordinary base64 in tool output (a data URI, a hash, a token) is one line; a public
 * block (CERTIFICATE, PUBLIC KEY) is left alone when its BEGIN line is in the text.
 */
export const MIN_RUN_LINES = 3;

/**
 * Runs of base64 lines of one armor width, three or more, and the shorter line that may end
 * them: the body of a private key whose BEGIN and END lines a cut left out (a slice, a search
 * hit, a preview of the middle). Each line must mix upper and lower case and digits (or `+` `/`),
 * so hex digests (64 characters, one per line in checksum files) are not key material.
 */
export function keyBodyRuns(text: string): Span[] {
  const spans: Span[] = [];
  let runStart = -1;
  let runEnd = -1;
  let width = 0;
  let lines = 0;
  let inPublicBlock = false;
  const close = () => {
    if (lines >= MIN_RUN_LINES) spans.push({ start: runStart, end: runEnd, name: "key-body" });
    lines = 0;
    width = 0;
  };
  forEachLine(text, (start, end) => {
    const armorLine = armorLabel(text, start, end);
    if (armorLine !== undefined) {
      close();
      inPublicBlock = armorLine.begin && !armorLine.private;
      return;
    }
    const core = inPublicBlock ? undefined : base64Core(text, start, end);
    const length = core ? core.end - core.start : 0;
    if (core && !core.padded && WIDTHS.has(length) && mixed(text, core.start, core.end)) {
      if (lines > 0 && length === width) {
        lines++;
        runEnd = core.end;
        return;
      }
      close();
      runStart = core.start;
      runEnd = core.end;
      width = length;
      lines = 1;
      return;
    }
    // The last line of a body is shorter, or padded and as wide as the others.
    if (core && !core.loose && lines >= MIN_RUN_LINES && length <= width && length >= 4) runEnd = core.end;
    close();
  });
  close();
  return spans;
}

/** Upper and lower case letters and a digit, `+` or `/`: random base64, not a word or a hex digest. */
function mixed(text: string, start: number, end: number): boolean {
  let upper = false;
  let lower = false;
  let other = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) upper = true;
    else if (c >= 97 && c <= 122) lower = true;
    else other = true;
    if (upper && lower && other) return true;
  }
  return false;
}

/** A `-----BEGIN <label>-----` or `-----END <label>-----` line (any leading filler), and whether the label is a private one. */
function armorLabel(text: string, start: number, end: number): { begin: boolean; private: boolean } | undefined {
  let i = start;
  while (i < end && text.charCodeAt(i) !== 45) {
    const c = text.charCodeAt(i);
    if (!(c === 32 || c === 9 || c === 34 || c === 39 || (c >= 48 && c <= 58))) return undefined;
    i++;
  }
  const line = text.slice(i, Math.min(end, i + 80));
  const match = /^-{4,5} ?(BEGIN|END) ([A-Z0-9 ]+?) ?-{4,5}/i.exec(line);
  if (!match) return undefined;
  return { begin: match[1].toUpperCase() === "BEGIN", private: /PRIVATE/i.test(match[2]) };
}
