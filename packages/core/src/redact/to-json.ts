import { binaryToJson, isSerializedBuffer } from "./binary.js";
import { errorToJson } from "./error-json.js";
import { setOwn } from "../util/set-own.js";
import { keyText, noting, unusedKey, type KeyReplacement, type ValueRedaction } from "./redact-value.js";

/**
 * A value as redacted JSON text, letting the native JSON.stringify do the walking (the
 * recorder's hot path), with the guarantees of `redactValue`. Throws what JSON.stringify throws
 * (a cycle): the caller then takes the careful walk, so a fault here could not hide behind it.
 * `parents` is scratch space, cleared before and after.
 */
export function redactedJson(
  policy: ValueRedaction,
  replace: KeyReplacement,
  value: unknown,
  path: string,
  redactedPaths: string[],
  parents: Map<object, [object, string]>,
): string | undefined {
  parents.clear();
  const pathOf = (holder: object, key: string): string => {
    const parts = [key];
    for (let at = parents.get(holder); at; at = parents.get(at[0])) parts.push(at[1]);
    return parts.reverse().join(".");
  };
  const collected: string[] = [];
  function replacer(this: object, key: string, item: unknown): unknown {
    const list = Array.isArray(this) ? (this as unknown[]) : undefined;
    const original = list ? key : (renamed.get(this)?.get(key) ?? key);
    if (original !== key) collected.push(pathOf(this, key));
    if (
      key !== "" &&
      (list ? key !== "0" && policy.hidesArgument(list[Number(key) - 1], item) : policy.hidesValue(original, item))
    ) {
      collected.push(pathOf(this, key));
      const name = list ? String(list[Number(key) - 1]).replace(/^-+/, "") : key;
      return replace.key(name, typeof item === "string" ? item : (JSON.stringify(item) ?? ""));
    }
    if (typeof item === "string") {
      const clean = policy.redactText(item);
      if (clean !== item) collected.push(pathOf(this, key));
      return clean;
    }
    if (typeof item === "bigint") return item.toString();
    if (typeof item !== "object" || item === null) return item;
    const plain =
      item instanceof Error
        ? errorToJson(item)
        : item instanceof Map
          ? Object.fromEntries(Array.from(item, ([k, v]) => [keyText(k), v]))
          : item instanceof Set
            ? Array.from(item)
            : ArrayBuffer.isView(item)
              ? binaryToJson(item, (text) =>
                  noting(policy.redactText(text), text, () => collected.push(pathOf(this, key))),
                )
              : isSerializedBuffer(item)
                ? binaryToJson(Buffer.from(item.data), (text) =>
                    noting(policy.redactText(text), text, () => collected.push(pathOf(this, key))),
                  )
                : item;
    const written = Array.isArray(plain) ? plain : withCleanKeys(plain as Record<string, unknown>);
    if (key !== "") parents.set(written, [this, key]);
    return written;
  }
  /** Copies whose keys were redacted, each with its written keys' originals (a key's sensitivity is its original's). */
  const renamed = new Map<object, Map<string, string>>();
  /** The object, or a copy with its secret keys redacted (a replacer cannot rename keys): such keys are noted too. */
  function withCleanKeys(object: Record<string, unknown>): object {
    let copy: Record<string, unknown> | undefined;
    let originals: Map<string, string> | undefined;
    let kept: Set<string> | undefined;
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) {
      const name = policy.redactKey(keys[i]);
      if (name === keys[i] && !copy) continue;
      if (!copy) {
        copy = {};
        originals = new Map();
        for (const earlier of keys.slice(0, i)) setOwn(copy, earlier, object[earlier]);
      }
      const written = name === keys[i] ? name : unusedKey(copy, name, (kept ??= new Set(keys)));
      setOwn(copy, written, object[keys[i]]);
      originals!.set(written, keys[i]);
    }
    if (!copy) return object;
    renamed.set(copy, originals!);
    return copy;
  }
  try {
    const json = JSON.stringify({ [path]: value }, replacer);
    redactedPaths.push(...collected);
    // `{"<path>":<value>}` -> `<value>`; the wrapper gives the root a key for redacted paths.
    return json.slice(JSON.stringify(path).length + 2, -1) || undefined;
  } finally {
    parents.clear();
  }
}

/**
 * Native JSON of plain data, or undefined when the value may hold what only the careful path
 * renders right (a cycle or BigInt throws; an empty `{}` may be an Error or a Map; `{"0":` a
 * typed array). Not redacted.
 */
export function structuralJsonOf(value: unknown): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (json === undefined || json.includes("{}") || json.includes('{"0":') || json.includes('"type":"Buffer","data":['))
    return undefined;
  return json;
}
