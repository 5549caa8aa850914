const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

/** A key as written in the text: where its quoted form is, and what it reads as. */
interface KeyToken {
  start: number;
  end: number;
  key: string;
}

/** An object or array being read: an object's keys so far, and whether a key comes next. */
interface Open {
  keys: KeyToken[] | undefined;
  keyNext: boolean;
}

/**
 * JSON text in which no object repeats a key: each repeat is renamed `(2) key`, `(3) key`...
 * (the first name the object does not use), so JSON.parse keeps every member where it would
 * keep only the last. The name still ends with the key, as sensitive key names are matched
 * (`(2) password` is as sensitive as `password`). Undefined when no object repeats a key. `text` must be JSON that
 * JSON.parse accepts; one pass over it, keys compared as they read (`"\u0061"` repeats `"a"`).
 */
export function renameDuplicateKeys(text: string): string | undefined {
  const stack: Open[] = [];
  const renames: Array<{ start: number; end: number; name: string }> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i + 1;
      let escaped = false;
      for (let d = text.charCodeAt(end); d !== QUOTE; d = text.charCodeAt(end)) {
        if (d === BACKSLASH) {
          escaped = true;
          end++;
        }
        end++;
      }
      end++;
      const top = stack.at(-1);
      if (top?.keys && top.keyNext) {
        top.keys.push({
          start: i,
          end,
          key: escaped ? (JSON.parse(text.slice(i, end)) as string) : text.slice(i + 1, end - 1),
        });
        top.keyNext = false;
      }
      i = end - 1;
    } else if (c === OPEN_OBJECT) stack.push({ keys: [], keyNext: true });
    else if (c === OPEN_ARRAY) stack.push({ keys: undefined, keyNext: false });
    else if (c === COMMA) {
      const top = stack.at(-1);
      if (top?.keys) top.keyNext = true;
    } else if (c === CLOSE_OBJECT) renameRepeats(stack.pop()!.keys!, renames);
    else if (c === CLOSE_ARRAY) stack.pop();
  }
  if (renames.length === 0) return undefined;
  renames.sort((a, b) => a.start - b.start);
  let out = "";
  let from = 0;
  for (const r of renames) {
    out += text.slice(from, r.start) + r.name;
    from = r.end;
  }
  return out + text.slice(from);
}

/** Notes a new name for each repeated key of one object: the first occurrence keeps its name. */
function renameRepeats(keys: KeyToken[], renames: Array<{ start: number; end: number; name: string }>): void {
  if (keys.length < 2) return;
  const taken = new Set(keys.map((k) => k.key));
  if (taken.size === keys.length) return;
  const seen = new Set<string>();
  /** The next number to try per key, so many repeats of one key stay linear. */
  const next = new Map<string, number>();
  for (const token of keys) {
    if (!seen.has(token.key)) {
      seen.add(token.key);
      continue;
    }
    let n = next.get(token.key) ?? 2;
    while (taken.has(repeatName(n, token.key))) n++;
    const name = repeatName(n, token.key);
    next.set(token.key, n + 1);
    taken.add(name);
    renames.push({ start: token.start, end: token.end, name: JSON.stringify(name) });
  }
}

/** The `n`th occurrence of `key`: a prefix, since a key's end says whether its value is a secret. */
function repeatName(n: number, key: string): string {
  return `(${n}) ${key}`;
}
