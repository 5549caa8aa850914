// `revoke` forgets the folder a path leads to, as `trust` pinned it: through a symlink too, and
// for a folder that no longer exists.
import assert from "node:assert/strict";
import { renameSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";
import { TrustStore } from "./trust-store.js";

const folders = tempFolders("hx-trust-revoke-");

describe("revoke names a folder however the path reaches it", () => {
  test("revoking through a symlink to a trusted folder untrusts that folder", () => {
    const store = new TrustStore(join(folders.home, "trust.json"));
    writeFileIn(join(folders.project, ".harnessx", "extensions", "guard.ts"), "export default {};\n");
    store.trust(folders.project);
    const link = join(folders.root, "link-to-project");
    symlinkSync(folders.project, link, "dir");
    assert.equal(store.status(link), "trusted", "the link leads to the trusted folder");

    assert.equal(store.revoke(link), true, "the link's folder was trusted");
    assert.equal(store.status(folders.project), "untrusted");
    assert.deepEqual(store.list(), []);
    assert.equal(store.revoke(folders.project), false, "nothing left to revoke");
  });

  test("trusting through a symlink pins the real folder, which revoke then finds by its own path", () => {
    const store = new TrustStore(join(folders.home, "trust.json"));
    const link = join(folders.root, "link-to-project");
    symlinkSync(folders.project, link, "dir");
    const record = store.trust(link);
    assert.equal(store.isTrusted(folders.project), true);
    assert.notEqual(record.dir, link);
    assert.equal(store.revoke(folders.project), true);
    assert.equal(store.status(link), "untrusted");
  });

  test("a trusted folder that was moved away can still be revoked by its old path", () => {
    const store = new TrustStore(join(folders.home, "trust.json"));
    store.trust(folders.project);
    const [record] = store.list();
    renameSync(folders.project, join(folders.root, "moved"));
    assert.equal(store.revoke(record!.dir), true);
    assert.deepEqual(store.list(), []);
  });
});
