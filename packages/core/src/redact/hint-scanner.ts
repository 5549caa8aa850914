/** What one pass over a text found: which hint literals occur, and whether a sensitive key is used as one. */
export interface HintScan {
  /** Indexes (into the literals given) of those that occur. */
  literals: ReadonlySet<number>;
  keyUsed: boolean;
}

const ALPHABET = 128;
/** A key used as one is followed by one of these: `"` `'` `\` `:` `=` space, no-break space. */
const KEY_FOLLOWERS = new Set([34, 39, 92, 58, 61, 32, 0xa0]);
/** Inside a key, `-`, `_` and a (no-break) space may separate its words (`api_key`, `x-api-key`, `api key`). */
const KEY_SEPARATORS = new Set([45, 95, 32, 0xa0]);

/**
 * Finds many lower-case literals and sensitive keys in one pass over a text (a trie walked from
 * each position), instead of one search per literal: the recorder asks this of every event.
 */
export class HintScanner {
  private readonly literalNext: Int32Array;
  private readonly literalEnds: number[][] = [];
  private readonly keyNext: Int32Array;
  private readonly keyEnds: boolean[] = [];

  constructor(literals: readonly string[], keys: readonly string[]) {
    this.literalNext = build(literals, this.literalEnds);
    const keyEnds: number[][] = [];
    this.keyNext = build(keys, keyEnds);
    this.keyEnds = keyEnds.map((ends) => ends.length > 0);
  }

  scan(lower: string): HintScan {
    const literals = new Set<number>();
    let keyUsed = false;
    const n = lower.length;
    for (let i = 0; i < n; i++) {
      const first = lower.charCodeAt(i);
      if (first >= ALPHABET) continue;
      let state = this.literalNext[first];
      for (let j = i + 1; state > 0; j++) {
        for (const id of this.literalEnds[state]) literals.add(id);
        const c = j < n ? lower.charCodeAt(j) : ALPHABET;
        state = c < ALPHABET ? this.literalNext[state * ALPHABET + c] : -1;
      }
      if (keyUsed) continue;
      state = this.keyNext[first];
      for (let j = i + 1; state > 0; j++) {
        const c = j < n ? lower.charCodeAt(j) : ALPHABET;
        if (this.keyEnds[state] && KEY_FOLLOWERS.has(c)) {
          keyUsed = true;
          break;
        }
        const next = c < ALPHABET ? this.keyNext[state * ALPHABET + c] : -1;
        if (next > 0) state = next;
        else if (!KEY_SEPARATORS.has(c)) break;
      }
    }
    return { literals, keyUsed };
  }
}

/** A trie as a transition table (state * 128 + char -> state, -1 for none; state 0 is the root). */
function build(words: readonly string[], ends: number[][]): Int32Array {
  const rows: number[][] = [new Array(ALPHABET).fill(-1)];
  ends.push([]);
  words.forEach((word, id) => {
    let state = 0;
    for (const ch of word) {
      const c = ch.charCodeAt(0);
      if (c >= ALPHABET) return;
      if (rows[state][c] < 0) {
        rows[state][c] = rows.length;
        rows.push(new Array(ALPHABET).fill(-1));
        ends.push([]);
      }
      state = rows[state][c];
    }
    if (state > 0) ends[state].push(id);
  });
  return Int32Array.from(rows.flat());
}
