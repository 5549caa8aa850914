/**
 * Freezes a value and every plain object and array reachable from it. Functions and class
 * instances (compiled validators, schemas) are frozen at their own level only: they are
 * held by reference, never walked, so a library's internal caches keep working.
 */
export function deepFreeze<T>(value: T): T {
  freeze(value, new Set());
  return value;
}

function freeze(value: unknown, seen: Set<unknown>): void {
  if (value === null || (typeof value !== "object" && typeof value !== "function") || seen.has(value)) return;
  seen.add(value);
  if (typeof value === "function" || !isPlain(value)) {
    if (typeof value === "function") Object.freeze(value);
    return;
  }
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor && "value" in descriptor) freeze(descriptor.value, seen);
  }
}

function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
