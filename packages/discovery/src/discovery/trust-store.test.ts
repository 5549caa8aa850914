// The trust file itself: every malformed shape is a TrustStoreError with its own words (never a
// crash, never a record accepted), failures keep their cause, and list() is sorted by folder.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { TrustStoreError } from "@harnessx/core";
import { TrustStore } from "./trust-store.js";
import { tempFolders } from "@harnessx/core/test-support";

const folders = tempFolders("hx-trust-store-");
const HEX = "0123456789abcdef".repeat(4);
const storeWith = (data: unknown) => {
  mkdirSync(folders.home, { recursive: true });
  const file = join(folders.home, "trust.json");
  writeFileSync(file, typeof data === "string" ? data : JSON.stringify(data));
  return new TrustStore(file);
};
const withProjects = (projects: unknown) => storeWith({ format: "harnessx.trust", version: 1, projects });

/** Asserts `call` throws the TrustStoreError of `store`'s file with exactly this problem. */
function bad(store: TrustStore, call: () => unknown, problem: string): TrustStoreError {
  let caught: unknown;
  assert.throws(call, (err: unknown) => {
    caught = err;
    assert.ok(err instanceof TrustStoreError, String(err));
    assert.equal(err.file, store.file);
    assert.ok(err.message.includes(problem), `${err.message} does not say ${problem}`);
    return true;
  });
  return caught as TrustStoreError;
}

describe("a trust file whose projects are not an object of records", () => {
  for (const [what, projects] of [
    ["null", null],
    ["an array", []],
    ["a string", "ab"],
    ["a number", 1],
  ] as const) {
    test(`projects ${what}`, () => {
      const store = withProjects(projects);
      bad(store, () => store.list(), `"projects" must be an object of folder -> { digest, trustedAt }`);
    });
  }
});

describe("a trust file with a malformed record", () => {
  const record = { digest: HEX, trustedAt: "2026-01-01T00:00:00.000Z" };
  for (const [what, value] of [
    ["null", null],
    ["an array", [HEX, "2026"]],
    ["a string", "trusted"],
    ["a digest that is not a string", { ...record, digest: [HEX] }],
    ["a digest too short", { ...record, digest: HEX.slice(1) }],
    ["a digest too long", { ...record, digest: `${HEX}0` }],
    ["a digest after other text", { ...record, digest: `x${HEX}` }],
    ["a digest before other text", { ...record, digest: `${HEX}x` }],
    ["a digest in capitals", { ...record, digest: HEX.toUpperCase() }],
    ["no trustedAt", { digest: HEX }],
    ["a trustedAt that is not a string", { ...record, trustedAt: 1 }],
  ] as const) {
    test(what, () => {
      const store = withProjects({ "/p": record, "/q": value });
      bad(store, () => store.list(), `the record of /q needs "digest" (sha256 hex) and "trustedAt" strings`);
    });
  }

  test("a well-formed record is listed as written", () => {
    assert.deepEqual(withProjects({ "/p": record }).list(), [{ dir: "/p", ...record }]);
  });
});

describe("trust file failures keep their cause", () => {
  test("a trust file that is a folder cannot be read, and is not taken for an empty one", () => {
    const file = join(folders.home, "trust.json");
    mkdirSync(file, { recursive: true });
    const store = new TrustStore(file);
    const err = bad(store, () => store.status(folders.project), "cannot be read: ");
    assert.equal((err.cause as NodeJS.ErrnoException).code, "EISDIR");
  });

  test("text that is not JSON keeps the parser's error", () => {
    const store = storeWith("{ nope");
    const err = bad(store, () => store.list(), "not valid JSON (");
    assert.ok(err.cause instanceof SyntaxError);
  });

  test("a trust file that cannot be written: a typed error, and no temporary file left", () => {
    writeFileSync(folders.home, "a file where the folder should be");
    const store = new TrustStore(join(folders.home, "trust.json"));
    const err = bad(store, () => store.trust(folders.project), "cannot be written: ");
    assert.ok(err.cause instanceof Error);
    assert.deepEqual(readdirSync(folders.root).sort(), ["home", "project"]);
  });
});

describe("list", () => {
  test("gives every trusted project sorted by folder, whatever order they were trusted in", () => {
    const store = new TrustStore(join(folders.home, "trust.json"));
    const names = ["m", "b", "z", "a"];
    for (const name of names) mkdirSync(join(folders.root, name));
    for (const name of names) store.trust(join(folders.root, name));
    const listed = store.list();
    assert.deepEqual(
      listed.map((record) => record.dir),
      ["a", "b", "m", "z"].map((name) => realpathSync(join(folders.root, name))),
    );
    for (const record of listed) {
      assert.match(record.digest, /^[0-9a-f]{64}$/);
      assert.ok(!Number.isNaN(Date.parse(record.trustedAt)));
    }
  });
});
