import type { KeyKind, KeyNames } from "./key-names.js";

/** Object keys remembered (their kind and redacted form); past this many, new ones are computed each time. */
const MAX_KNOWN_KEYS = 10_000;

/** What an object key is known to be: how its values are treated, and the key as written out (once asked). */
export interface KnownKey {
  kind: KeyKind;
  clean?: string;
}

/** Object keys repeat endlessly (`toolCall`, `content`...): what they are is computed once. */
export class KnownKeys {
  readonly #keyNames: KeyNames;
  readonly #knownKeys = new Map<string, KnownKey>();

  constructor(keyNames: KeyNames) {
    this.#keyNames = keyNames;
  }

  /** What `key` is, remembered (its `clean` form is filled in by whoever first asks for it). */
  get(key: string): KnownKey {
    let known = this.#knownKeys.get(key);
    if (known === undefined) {
      known = { kind: this.#keyNames.kindOf(key) };
      if (this.#knownKeys.size < MAX_KNOWN_KEYS) this.#knownKeys.set(key, known);
    }
    return known;
  }
}

// Shared by every agent of the process: no one may patch it (see Redactor).
Object.freeze(KnownKeys.prototype);
