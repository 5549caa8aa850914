/** Bytes per block of the index: converting inside one block is the most a lookup decodes. */
const BLOCK = 1 << 20;

/**
 * Where characters (UTF-16 code units, as the model counts them) fall in UTF-8 bytes, kept as the
 * number of characters before every block start. Built once by counting lead bytes, never by
 * decoding the text to a string, so a character offset deep in a large non-ASCII text costs at most
 * one block.
 */
export class CharIndex {
  /** Characters before each block start; one more entry, the total. */
  private readonly before: number[] = [0];

  constructor(private readonly bytes: Buffer) {
    for (let at = 0; at < bytes.length; at += BLOCK) {
      this.before.push(this.before[this.before.length - 1] + units(bytes, at, Math.min(bytes.length, at + BLOCK)));
    }
  }

  get charCount(): number {
    return this.before[this.before.length - 1];
  }

  /** Byte offset of character offset `char` (clamped to the end). */
  byteOfChar(char: number): number {
    if (char >= this.charCount) return this.bytes.length;
    let lo = 0;
    let hi = this.before.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.before[mid] <= char) lo = mid;
      else hi = mid - 1;
    }
    let chars = this.before[lo];
    for (let i = lo * BLOCK; i < this.bytes.length; i++) {
      const b = this.bytes[i];
      if ((b & 0xc0) === 0x80) continue;
      if (chars >= char) return i;
      chars += b >= 0xf0 ? 2 : 1;
    }
    return this.bytes.length;
  }

  /** Character offset of byte offset `byte`. */
  charOfByte(byte: number): number {
    const end = Math.min(Math.max(byte, 0), this.bytes.length);
    const k = Math.floor(end / BLOCK);
    return this.before[k] + units(this.bytes, k * BLOCK, end);
  }
}

/** UTF-16 code units encoded by the bytes from `from` to `to`: one per lead byte, two for 4-byte sequences. */
function units(bytes: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

/** `offset`, or the start of the multi-byte character it falls inside. */
export function boundary(bytes: Buffer, offset: number): number {
  let at = offset;
  while (at > 0 && at < bytes.length && (bytes[at] & 0xc0) === 0x80) at--;
  return at;
}
