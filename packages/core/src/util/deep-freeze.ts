import { types } from "node:util";

/**
 * Plain objects and arrays their maker vouches for as frozen all the way down (only primitives
 * and other such values below them). A read-only snapshot shares them instead of copying them:
 * each model call's request is vouched for once, so its observers cost no copy of the history.
 * Vouching is rare on purpose: adding to a weak set costs more than copying a small object.
 */
const FROZEN_THROUGH = new WeakSet<object>();

/** True for a value its maker vouched for with `vouchFrozenThrough`. */
export function isFrozenThrough(value: object): boolean {
  return FROZEN_THROUGH.has(value);
}

/** Records that `value`, frozen, holds nothing mutable: its maker knows (it froze every part). */
export function vouchFrozenThrough(value: object): void {
  FROZEN_THROUGH.add(value);
}

/**
 * Freezes a value and every plain object and array reachable from it through own enumerable
 * properties. Functions are frozen at their own level only; class instances (compiled validators,
 * schemas) and proxies are held by reference, neither walked nor frozen, so a library's internal
 * caches keep working.
 */
export function deepFreeze<T>(value: T): T {
  freeze(value, 0, undefined);
  return value;
}

/** Past this depth the walk remembers what it saw: only a cycle goes that deep in a message. */
const CYCLE_CHECK_DEPTH = 32;

/**
 * Freezes `value` and the plain data below it, children first, so an object seen frozen has every
 * plain object below it frozen too: it is taken as done, and freezing a history of frozen messages
 * again costs one check each. The engine freezes every message it keeps, so no set is allocated
 * for the shallow data that is the common case.
 */
function freeze(value: unknown, depth: number, seen: Set<object> | undefined): void {
  if (value === null || typeof value !== "object") {
    if (typeof value === "function") Object.freeze(value);
    return;
  }
  // A proxy is never walked: its traps are someone's code, and a read-only view refuses to be frozen.
  if (Object.isFrozen(value) || types.isProxy(value) || !isPlain(value)) return;
  if (depth >= CYCLE_CHECK_DEPTH) {
    seen ??= new Set();
    if (seen.has(value)) return;
    seen.add(value);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) freeze(value[i], depth + 1, seen);
  } else {
    for (const key in value)
      if (Object.hasOwn(value, key)) freeze((value as Record<string, unknown>)[key], depth + 1, seen);
  }
  Object.freeze(value);
}

/** An array, or an object whose prototype is `Object.prototype` or null. */
export function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
