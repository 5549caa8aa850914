const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const COMMA = 0x2c;

/**
 * About how many values the JSON text in `bytes[start, end)` holds, counted up to `budget` (the
 * count stops just past it): each string, each object and array, and each element or member
 * after a comma. Strings are skipped whole (`indexOf` to their closing quote), so a text made of
 * long strings costs little to count; braces and commas inside them are not counted.
 */
export function jsonValues(bytes: Uint8Array, start: number, end: number, budget: number): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  for (let at = start; at < end; ) {
    const byte = buffer[at];
    if (byte === QUOTE) {
      let close = at + 1;
      for (;;) {
        close = buffer.indexOf(QUOTE, close);
        if (close === -1 || close >= end) return count;
        let escapes = 0;
        while (buffer[close - 1 - escapes] === BACKSLASH) escapes++;
        if (escapes % 2 === 0) break;
        close++;
      }
      at = close + 1;
      if (++count > budget) return count;
      continue;
    }
    if ((byte === OPEN_BRACE || byte === OPEN_BRACKET || byte === COMMA) && ++count > budget) return count;
    at++;
  }
  return count;
}
