// The keys a user trusts besides their own: a small list others may not write.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SigningKey, SigningKeyError, TrustedKeys } from "../index.js";
import { tempDir } from "../../../test/support/system.js";

const { dir, cleanup } = tempDir("hx-trusted-");
after(() => cleanup());
let n = 0;
const list = () => new TrustedKeys(join(dir, `keys-${++n}`, "trusted-keys.json"));
const alice = SigningKey.generate().fingerprint;
const bob = SigningKey.generate().fingerprint;
const refused = (problem: string) => (e: unknown) => e instanceof SigningKeyError && e.problem === problem;

describe("TrustedKeys", () => {
  test("keys are added by name, listed in order, removed by name or fingerprint; none before the file exists", async () => {
    const trusted = list();
    assert.deepEqual(await trusted.list(), []);
    await trusted.add("alice", alice);
    await trusted.add("bob", bob);
    assert.deepEqual(
      (await trusted.list()).map((k) => [k.name, k.fingerprint]),
      [
        ["alice", alice],
        ["bob", bob],
      ],
    );
    assert.equal((await trusted.remove(alice))?.name, "alice");
    assert.equal((await trusted.remove("bob"))?.fingerprint, bob);
    assert.equal(await trusted.remove("bob"), undefined);
    assert.deepEqual(await trusted.list(), []);
  });
  test("the same key again takes the new name; another key under a taken name is refused", async () => {
    const trusted = list();
    await trusted.add("alice", alice);
    await trusted.add("alice laptop", alice);
    assert.deepEqual(
      (await trusted.list()).map((k) => k.name),
      ["alice laptop"],
    );
    await assert.rejects(trusted.add("alice laptop", bob), refused("name_taken"));
  });
  test("a name or fingerprint that is not one is refused", async () => {
    const trusted = list();
    await assert.rejects(trusted.add("", alice), refused("invalid"));
    await assert.rejects(trusted.add("\u001b[31mred", alice), refused("invalid"));
    await assert.rejects(trusted.add("carol", "SHA256:short"), refused("invalid"));
  });
  test("a list others may write is refused (group or other bits); a damaged list is refused, not emptied", async () => {
    const trusted = list();
    await trusted.add("alice", alice);
    if (process.platform !== "win32") {
      for (const mode of [0o664, 0o646]) {
        chmodSync(trusted.path, mode);
        await assert.rejects(trusted.list(), refused("loose_permissions"));
      }
      chmodSync(trusted.path, 0o644);
      assert.equal((await trusted.list()).length, 1, "readable by others is fine: it holds no secret");
    }
    for (const text of [
      "{ not json",
      '{"keys": 3}',
      '{"keys": [{"name": "x", "fingerprint": "SHA256:nope", "addedAt": "t"}]}',
    ]) {
      const damaged = list();
      mkdirSync(join(damaged.path, ".."), { recursive: true });
      writeFileSync(damaged.path, text);
      await assert.rejects(damaged.list(), refused("unreadable"));
      await assert.rejects(damaged.add("alice", alice), refused("unreadable"));
    }
  });
});
