import { isTokenChar } from "../redact/detector.js";

/** How far a cut moves back to stay off a token; a longer one (a base64 blob, not a key) is cut where it is. */
const MAX_TOKEN_BACKTRACK = 256;

/**
 * Where to cut `text` to keep at most `at` characters: `at`, moved back to the start of the
 * token it would split (letters, digits, `_ - + / =`) and off the middle of a surrogate pair.
 * Half an API key or half a line of a private key is a secret no redaction recognizes, so a cut
 * keeps whole tokens only: the text before the cut is redacted as usual wherever it goes.
 */
export function cutPoint(text: string, at: number): number {
  if (at >= text.length) return text.length;
  let end = Math.max(0, at);
  if (end > 0 && end < text.length && isTokenChar(text.charCodeAt(end - 1)) && isTokenChar(text.charCodeAt(end))) {
    let start = end - 1;
    while (start > 0 && end - start <= MAX_TOKEN_BACKTRACK && isTokenChar(text.charCodeAt(start - 1))) start--;
    if (end - start <= MAX_TOKEN_BACKTRACK) end = start;
  }
  const code = text.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end--;
  return end;
}

/** Cuts text for the model at `maxChars` (off any token, see `cutPoint`), saying how much was left out. */
export function cutForModel(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const end = cutPoint(content, maxChars);
  const marker = `\n[harnessx: result truncated: showing the first ${end} of ${content.length} characters]`;
  return content.slice(0, end) + marker;
}
