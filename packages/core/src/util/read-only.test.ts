import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HarnessError } from "../errors.js";
import { deepFreeze, vouchFrozenThrough } from "./deep-freeze.js";
import { readOnlySnapshot, readOnlySnapshotOf } from "./read-only.js";

describe("readOnlySnapshot", () => {
  test("copies plain data, freezes the copy through, and leaves the owner's objects as they were", () => {
    const owner = { a: { b: [1, { c: "x" }] }, n: 1 };
    const snap = readOnlySnapshot(owner);
    assert.deepEqual(snap, owner);
    assert.notEqual(snap, owner);
    assert.notEqual(snap.a.b, owner.a.b);
    assert.ok(
      Object.isFrozen(snap) && Object.isFrozen(snap.a) && Object.isFrozen(snap.a.b) && Object.isFrozen(snap.a.b[1]),
    );
    assert.ok(!Object.isFrozen(owner) && !Object.isFrozen(owner.a.b[1]));
    assert.throws(() => ((snap.a.b[1] as { c: string }).c = "y"), TypeError);
    assert.throws(() => (snap.a.b as unknown[]).push(2), TypeError);
    owner.a.b.push(3);
    assert.equal(snap.a.b.length, 2, "a later change of the owner's object does not reach the snapshot");
  });

  test('a "__proto__" member of parsed JSON (a model\'s tool input) is copied as a member, not made the prototype', () => {
    const input = JSON.parse('{"path":"a.txt","__proto__":{"cmd":"rm -rf ~"}}') as Record<string, unknown>;
    const snap = readOnlySnapshot(input);
    assert.equal(Object.getPrototypeOf(snap), Object.prototype);
    assert.deepEqual(Object.keys(snap), ["path", "__proto__"]);
    assert.equal(JSON.stringify(snap), JSON.stringify(input));
  });

  test("shares what its maker vouched for as frozen through, and only that", () => {
    const history = deepFreeze([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
    vouchFrozenThrough(history);
    const frozenOnly = deepFreeze({ inner: { open: true } });
    const shallow = Object.freeze({ inner: { open: true } });
    const snap = readOnlySnapshot({ history, frozenOnly, shallow });
    assert.equal(snap.history, history);
    assert.notEqual(snap.frozenOnly, frozenOnly, "frozen but not vouched for: copied");
    assert.notEqual(snap.shallow, shallow, "a shallowly frozen object holds a mutable one: it is copied");
    assert.throws(() => ((snap.shallow.inner as { open: boolean }).open = false), TypeError);
  });

  test("deepFreeze freezes children before parents, so a frozen object it made is frozen through", () => {
    const value = deepFreeze({ a: [{ b: { c: 1 } }], d: new Map() });
    assert.ok(Object.isFrozen(value.a[0]!.b));
    assert.ok(!Object.isFrozen(value.d), "a class instance is held, not walked");
  });

  test("an Error or class instance is reached through a view that refuses writes and reads like the original", () => {
    const error = new HarnessError("budget_exhausted", "spent it all");
    class Account {
      balance = 10;
      owner = { name: "alice" };
    }
    const snap = readOnlySnapshot({ error, account: new Account() });
    assert.ok(snap.error instanceof HarnessError);
    assert.equal(snap.error.message, "spent it all");
    assert.equal(snap.error.code, "budget_exhausted");
    assert.throws(() => ((snap.error as { message: string }).message = "nothing happened"), /read-only/);
    assert.throws(() => delete (snap.error as { code?: string }).code, /read-only/);
    assert.throws(() => ((snap.account.owner as { name: string }).name = "mallory"), TypeError);
    assert.throws(() => Object.defineProperty(snap.account, "balance", { value: 0 }), /read-only/);
    assert.throws(() => Object.setPrototypeOf(snap.account, null), /read-only/);
    assert.equal(error.message, "spent it all");
    assert.equal(snap.account.balance, 10);
  });

  test("dates, maps, sets and binary data arrive as copies: changing them changes nothing of the owner's", () => {
    const owner = {
      when: new Date(0),
      tags: new Map([["k", { v: 1 }]]),
      seen: new Set([1]),
      bytes: Buffer.from("abc"),
    };
    const snap = readOnlySnapshot(owner);
    snap.when.setTime(5);
    snap.tags.set("k", { v: 2 });
    snap.seen.add(2);
    snap.bytes[0] = 0;
    assert.equal(owner.when.getTime(), 0);
    assert.deepEqual(owner.tags.get("k"), { v: 1 });
    assert.equal(owner.seen.size, 1);
    assert.equal(owner.bytes.toString(), "abc");
  });

  test("cycles are kept, and a value nested past any stack is read lazily without overflowing", () => {
    const cyclic: { self?: unknown; list: unknown[] } = { list: [] };
    cyclic.self = cyclic;
    cyclic.list.push(cyclic);
    const snap = readOnlySnapshot(cyclic);
    assert.equal(snap.self, snap);
    assert.equal(snap.list[0], snap);
    let deep: unknown = "bottom";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const deepSnap = readOnlySnapshot({ deep }) as { deep: unknown[] };
    let cursor: unknown = deepSnap.deep;
    for (let i = 0; i < 1_000; i++) cursor = (cursor as unknown[])[0];
    assert.ok(Array.isArray(cursor));
    assert.throws(() => (cursor as unknown[]).push(1), TypeError);
  });

  test("a value that throws when read becomes a note, never an exception", () => {
    const hostile = {
      fine: 1,
      get boom(): number {
        throw new Error("gotcha");
      },
    };
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("no keys");
        },
      },
    );
    const snap = readOnlySnapshot({ hostile, trap });
    assert.match(String(snap.hostile), /unreadable value: gotcha/);
    // Someone else's proxy is not walked (its traps run only when an observer reads it), and refuses writes.
    assert.throws(() => Object.keys(snap.trap), /no keys/);
    assert.throws(() => ((snap.trap as { x?: number }).x = 1), /read-only/);
  });

  test("primitives and undefined pass through", () => {
    assert.equal(readOnlySnapshot(undefined), undefined);
    assert.equal(readOnlySnapshot("s"), "s");
    assert.equal(readOnlySnapshot(3n), 3n);
  });

  test("a Map's keys are copied like its values, and a RegExp arrives as a frozen copy", () => {
    const key = { owner: "alice" };
    const filter = /^alice$/;
    const snap = readOnlySnapshot({ limits: new Map([[key, 100]]), filter });
    const [snapKey] = [...snap.limits.keys()];
    assert.notEqual(snapKey, key);
    assert.throws(() => ((snapKey as { owner: string }).owner = "mallory"), TypeError);
    assert.notEqual(snap.filter, filter);
    assert.ok(Object.isFrozen(snap.filter) && snap.filter.test("alice"));
    assert.throws(() => snap.filter.compile("^mallory$"), TypeError);
    assert.equal(filter.source, "^alice$");
  });

  test("a snapshot holding a copy that cannot be frozen says it may not be shared", () => {
    assert.equal(readOnlySnapshotOf({ a: [1, { b: "x" }], r: /x/ }).shareable, true);
    for (const special of [
      new Date(0),
      new Map(),
      new Set(),
      Buffer.from("x"),
      new Uint8Array(1),
      new ArrayBuffer(1),
      new DataView(new ArrayBuffer(1)),
    ]) {
      assert.equal(readOnlySnapshotOf({ deep: [{ special }] }).shareable, false, String(special.constructor.name));
    }
  });
});
