import { foldKeyText } from "./key-names.js";

/** What one pass over a text found: which hint literals occur, and whether (and where) a sensitive key is used as one. */
export interface HintScan {
  /** Indexes (into the literals given) of those that occur. */
  literals: ReadonlySet<number>;
  keyUsed: boolean;
  /** Where keys used as one end (offsets into the text), in order; undefined past `MAX_KEY_HITS` of them. */
  keyAt: number[] | undefined;
}

/** Key uses located one by one; a text with more is searched whole. */
const MAX_KEY_HITS = 32;

const ALPHABET = 128;
/** A key used as one is followed by one of these: `"` `'` `\` `:` `=` `>` (an XML element), space, no-break space. */
const KEY_FOLLOWERS = new Set([34, 39, 92, 58, 61, 62, 32, 0xa0]);
/**
 * What follows a key that is not used as one in prose (a plural: `tokens` is an everyday word,
 * `tokens:` a key; `auth`): everything above but spaces.
 */
const STRICT_FOLLOWERS = new Set([34, 39, 92, 58, 61, 62]);
/** `s`: a key in the plural (`passwords:`). */
const PLURAL_S = 115;
/** Key ends (trie states): a key followed by any follower, or one used only with a strict follower. */
const ANY = 1;
const STRICT = 2;
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
  private readonly keyEnds: number[] = [];
  /**
   * The first two characters any literal or key can start with (index first * 129 + second;
   * second 128 stands for the end of the text or a character outside ASCII): most positions of
   * ordinary text start nothing, and this skips them without walking a trie.
   */
  private readonly openers = new Uint8Array(ALPHABET * (ALPHABET + 1));
  /**
   * Literals (with their indexes) and keys beyond ASCII (`número`, `contraseña`), which the tries
   * cannot hold: each is searched for on its own, and a key found sends the text to a whole search.
   */
  private readonly wideLiterals: Array<[string, number]>;
  private readonly wideKeys: RegExp | undefined;

  /** `strictKeys` (among `keys`) count as used only before a strict follower (see `STRICT_FOLLOWERS`). */
  constructor(literals: readonly string[], keys: readonly string[], strictKeys: readonly string[] = []) {
    this.literalNext = build(literals, this.literalEnds);
    const keyEnds: number[][] = [];
    this.keyNext = build(keys, keyEnds);
    this.keyEnds = keyEnds.map((ends) =>
      ends.length === 0 ? 0 : ends.every((id) => strictKeys.includes(keys[id])) ? STRICT : ANY,
    );
    for (const literal of literals) this.markOpener(literal, []);
    // A key may have a separator after any of its letters (`a_pi key`), and is followed by one.
    for (const key of keys) this.markOpener(key, [...KEY_SEPARATORS, ...KEY_FOLLOWERS]);
    this.wideLiterals = literals.flatMap(
      (literal, id): Array<[string, number]> => (isAscii(literal) ? [] : [[literal, id]]),
    );
    const wide = keys.filter((key) => !isAscii(key));
    this.wideKeys = wide.length ? new RegExp(wide.map(wideKeyPattern).join("|")) : undefined;
  }

  private markOpener(word: string, alsoSecond: readonly number[]): void {
    const first = word.charCodeAt(0);
    if (!(first < ALPHABET)) return;
    const row = first * (ALPHABET + 1);
    const second = word.length > 1 ? word.charCodeAt(1) : ALPHABET;
    this.openers[row + Math.min(second, ALPHABET)] = 1;
    for (const c of alsoSecond) this.openers[row + Math.min(c, ALPHABET)] = 1;
    // A word of one letter (or one followed by anything) may end the text or precede any character.
    if (word.length === 1) this.openers.fill(1, row, row + ALPHABET + 1);
  }

  scan(lower: string): HintScan {
    // Walking bytes is several times faster than charCodeAt. Latin-1 keeps every character the
    // tries know (ASCII, no-break space) as it is; one beyond Latin-1 turns into some byte, which
    // can only start or extend a candidate (the detectors then run on the real text), never hide one.
    const text = Buffer.from(lower, "latin1");
    const literals = new Set<number>();
    let keyAt: number[] | undefined = [];
    const n = text.length;
    const openers = this.openers;
    for (let i = 0; i < n; i++) {
      const first = text[i];
      if (first >= ALPHABET) continue;
      const second = i + 1 < n ? text[i + 1] : ALPHABET;
      if (openers[first * (ALPHABET + 1) + Math.min(second, ALPHABET)] === 0) continue;
      let state = this.literalNext[first];
      for (let j = i + 1; state > 0; j++) {
        for (const id of this.literalEnds[state]) literals.add(id);
        const c = j < n ? text[j] : ALPHABET;
        state = c < ALPHABET ? this.literalNext[state * ALPHABET + c] : -1;
      }
      if (keyAt === undefined) continue;
      state = this.keyNext[first];
      for (let j = i + 1; state > 0; j++) {
        const c = j < n ? text[j] : ALPHABET;
        const end = this.keyEnds[state];
        if (
          end !== 0 &&
          ((end === ANY ? KEY_FOLLOWERS : STRICT_FOLLOWERS).has(c) ||
            (c === PLURAL_S && STRICT_FOLLOWERS.has(j + 1 < n ? text[j + 1] : ALPHABET)))
        ) {
          if (keyAt.length < MAX_KEY_HITS) keyAt.push(j);
          else keyAt = undefined;
          break;
        }
        const next = c < ALPHABET ? this.keyNext[state * ALPHABET + c] : -1;
        if (next > 0) state = next;
        else if (!KEY_SEPARATORS.has(c)) break;
      }
    }
    for (const [literal, id] of this.wideLiterals) if (lower.includes(literal)) literals.add(id);
    if (this.wideKeys?.test(foldKeyText(lower))) keyAt = undefined;
    return { literals, keyUsed: keyAt === undefined || keyAt.length > 0, keyAt };
  }
}

/**
 * A key beyond ASCII as text may write it: its letters joined by a separator or not (`clé_api`,
 * `clé api`), each non-ASCII character as itself or JSON-escaped (`contrase\u00f1a`, as Python's
 * json.dumps writes it), in a text folded by `foldKeyText`.
 */
function wideKeyPattern(key: string): string {
  const characters = Array.from(key, (c) => {
    const literal = c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
    if (isAscii(c)) return literal;
    const escaped = Array.from({ length: c.length }, (_, i) => `\\\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`);
    return `(?:${literal}|${escaped.join("")})`;
  });
  return characters.join("[-_.\\s\\u00a0]?");
}

function isAscii(word: string): boolean {
  return /^[\x00-\x7f]*$/.test(word);
}

/** A trie as a transition table (state * 128 + char -> state, -1 for none; state 0 is the root). */
function build(words: readonly string[], ends: number[][]): Int32Array {
  let table = new Int32Array(ALPHABET * 64).fill(-1);
  let states = 1;
  ends.push([]);
  words.forEach((word, id) => {
    let state = 0;
    for (let k = 0; k < word.length; k++) {
      const c = word.charCodeAt(k);
      // A word beyond ASCII is searched for on its own (see `wideLiterals`).
      if (c >= ALPHABET) return;
      const at = state * ALPHABET + c;
      if (table[at] < 0) {
        if ((states + 1) * ALPHABET > table.length) {
          const grown = new Int32Array(table.length * 2).fill(-1);
          grown.set(table);
          table = grown;
        }
        table[at] = states++;
        ends.push([]);
      }
      state = table[at];
    }
    if (state > 0) ends[state].push(id);
  });
  return table.slice(0, states * ALPHABET);
}

// Shared by every agent of the process: no one may patch it (see Redactor).
Object.freeze(HintScanner.prototype);
