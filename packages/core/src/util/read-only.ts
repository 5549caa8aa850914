import { types } from "node:util";
import { isFrozenThrough, isPlain } from "./deep-freeze.js";
import { setOwn } from "./set-own.js";

/**
 * Below this depth a snapshot stops copying and hands out lazy read-only views instead, so a
 * hostile value nested a million levels deep costs neither the stack nor the heap.
 */
const MAX_COPY_DEPTH = 64;

/** The read-only view of each object handed out, so a value reads the same object every time. */
const VIEWS = new WeakMap<object, object>();
/** The views themselves: a view needs no other view. */
const VIEW_SET = new WeakSet<object>();

/**
 * A read-only snapshot of a value for code that may only read it (observers, policies): plain
 * objects and arrays are copied and frozen, sharing what its maker vouched for as frozen through
 * (`vouchFrozenThrough`), so the owner's objects are never touched and a write through the
 * snapshot throws. Other objects (Errors, class instances) are reached through a view that refuses
 * writes; Dates, Maps, Sets and binary data arrive as copies of their own. A value that cannot
 * be read (a getter or proxy that throws) becomes a string saying so.
 */
export function readOnlySnapshot<T>(value: T): T {
  return snapshot(value, 0, newWalk()) as T;
}

/**
 * A snapshot, and whether it may be shared: not when it holds a copy of a Date, Map, Set or binary
 * data, which cannot be frozen (their methods change internal slots), so one reader could change
 * what the next reads. Such a snapshot is taken again for each reader.
 */
export function readOnlySnapshotOf<T>(value: T): { value: T; shareable: boolean } {
  const walk = newWalk();
  const copy = snapshot(value, 0, walk) as T;
  return { value: copy, shareable: !walk.mutableCopies };
}

interface Walk {
  copies: Map<object, unknown>;
  /** Set when a copy that cannot be frozen was made. */
  mutableCopies: boolean;
}

const newWalk = (): Walk => ({ copies: new Map(), mutableCopies: false });

function snapshot(value: unknown, depth: number, walk: Walk): unknown {
  const { copies } = walk;
  if (typeof value !== "object" || value === null) return value;
  if (isFrozenThrough(value)) return value;
  const done = copies.get(value);
  if (done !== undefined) return done;
  try {
    // Someone else's proxy is not walked (its traps are their code): it is read lazily, like a class instance.
    if (types.isProxy(value)) return VIEW_SET.has(value) ? value : view(value);
    if (!isPlain(value)) return special(value, walk);
    if (depth >= MAX_COPY_DEPTH) return view(value);
    return Array.isArray(value)
      ? copyArray(value, depth, walk)
      : copyObject(value as Record<string, unknown>, depth, walk);
  } catch (err) {
    return `[unreadable value: ${err instanceof Error ? err.message : String(err)}]`;
  }
}

function copyArray(value: readonly unknown[], depth: number, walk: Walk): readonly unknown[] {
  const copy = new Array<unknown>(value.length);
  walk.copies.set(value, copy);
  for (let i = 0; i < value.length; i++) copy[i] = snapshot(value[i], depth + 1, walk);
  return Object.freeze(copy);
}

function copyObject(value: Record<string, unknown>, depth: number, walk: Walk): Record<string, unknown> {
  const copy: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  walk.copies.set(value, copy);
  for (const key in value) if (Object.hasOwn(value, key)) setOwn(copy, key, snapshot(value[key], depth + 1, walk));
  return Object.freeze(copy);
}

/** Values whose state lives in internal slots: a proxy cannot stand in for them, a copy can. */
function special(value: object, walk: Walk): unknown {
  if (value instanceof RegExp) return Object.freeze(new RegExp(value));
  if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet) return value;
  const copy = mutableCopy(value, walk);
  if (copy === undefined) return view(value);
  walk.mutableCopies = true;
  return copy;
}

function mutableCopy(value: object, walk: Walk): unknown {
  if (value instanceof Date) return new Date(value.getTime());
  if (Buffer.isBuffer(value)) return Buffer.from(value);
  if (value instanceof DataView)
    return new DataView(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  if (ArrayBuffer.isView(value))
    return new (value.constructor as new (source: ArrayBufferView) => ArrayBufferView)(value);
  if (value instanceof ArrayBuffer) return value.slice(0);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [snapshot(k, 0, walk), snapshot(v, 0, walk)]));
  if (value instanceof Set) return new Set([...value].map((v) => snapshot(v, 0, walk)));
  return undefined;
}

/** A lazy view that refuses every write and hands out snapshots of what it holds. */
function view(target: object): object {
  const known = VIEWS.get(target);
  if (known) return known;
  const proxy = new Proxy(target, READ_ONLY);
  VIEWS.set(target, proxy);
  VIEW_SET.add(proxy);
  return proxy;
}

function refuse(action: string, key?: PropertyKey): never {
  throw new TypeError(
    `read-only: ${action}${key === undefined ? "" : ` "${String(key)}"`} refused; observers and policies read events, only middleware may change a request or a call`,
  );
}

/** A property the target pins forever: a proxy must report its exact value. */
function pinned(target: object, key: PropertyKey): boolean {
  const own = Reflect.getOwnPropertyDescriptor(target, key);
  return own !== undefined && own.configurable === false && own.writable === false;
}

const READ_ONLY: ProxyHandler<object> = {
  get(target, key) {
    const value = Reflect.get(target, key, target);
    if (typeof value !== "object" || value === null || pinned(target, key)) return value;
    return snapshot(value, 0, newWalk());
  },
  getOwnPropertyDescriptor(target, key) {
    const own = Reflect.getOwnPropertyDescriptor(target, key);
    if (!own || !("value" in own) || (own.configurable === false && own.writable === false)) return own;
    return { ...own, value: snapshot(own.value, 0, newWalk()) };
  },
  set: (_target, key) => refuse("setting", key),
  defineProperty: (_target, key) => refuse("defining", key),
  deleteProperty: (_target, key) => refuse("deleting", key),
  setPrototypeOf: () => refuse("changing the prototype"),
  preventExtensions: () => refuse("preventing extensions"),
};
