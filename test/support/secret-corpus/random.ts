/**
 * Made-up secret material for the redaction corpus: a seeded xorshift stream, so every sample is
 * the same on every run and none is (or was) a real credential.
 */
export const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const LOWER = "abcdefghijklmnopqrstuvwxyz0123456789";
export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
export const HEX = "0123456789abcdef";
export const DIGITS = "0123456789";
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const B64 = `${ALNUM}+/`;
export const B64URL = `${ALNUM}-_`;

/** A stream of random strings; `seed` picks the stream. */
export class Material {
  private state: number;

  constructor(seed: number) {
    this.state = (seed * 2654435761) >>> 0 || 1;
  }

  private next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state;
  }

  /** `length` characters of `alphabet`; an alphanumeric draw always mixes cases and digits (as real keys do). */
  of(alphabet: string, length: number): string {
    for (;;) {
      let out = "";
      for (let i = 0; i < length; i++) out += alphabet[this.next() % alphabet.length];
      const mixed = /[a-z]/.test(out) && /[A-Z]/.test(out) && /\d/.test(out);
      if (length < 12 || !(alphabet === ALNUM || alphabet === B64 || alphabet === B64URL) || mixed) return out;
    }
  }

  alnum = (length: number) => this.of(ALNUM, length);
  lower = (length: number) => this.of(LOWER, length);
  upper = (length: number) => this.of(UPPER, length);
  hex = (length: number) => this.of(HEX, length);
  digits = (length: number) => this.of(DIGITS, length);
  letters = (length: number) => this.of(LETTERS, length);
  b64 = (length: number) => this.of(B64, length);
  b64url = (length: number) => this.of(B64URL, length);
}
