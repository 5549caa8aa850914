// Discovery and trust: an untrusted project's extensions are never imported, trust is pinned to
// the content of the trusted surfaces, and a bad trust file is a typed error naming the file.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { TrustStoreError } from "@harnessx/core";
import { discoveryFixture } from "../test-support/discovery.js";
import { writeFileIn } from "@harnessx/core/test-support";
import { TrustStore } from "./trust-store.js";

const { folders, run, projectFile, marking } = discoveryFixture();

describe("an untrusted project's extensions are not imported", () => {
  test("they are skipped as untrusted and their code never runs", async () => {
    const guard = marking("guard");
    const path = projectFile("guard.ts", guard.text);
    const result = await run();
    assert.deepEqual(result.extensions, []);
    assert.deepEqual(result.skipped, [{ path, kind: "extension", level: "project", reason: "untrusted" }]);
    assert.equal(existsSync(guard.marker), false, "an untrusted file was imported");
  });

  test("after trust they load at level project with their file as source", async () => {
    const guard = marking("guard");
    const path = projectFile("guard.ts", guard.text);
    folders.store.trust(folders.project);
    const result = await run();
    assert.deepEqual(result.skipped, []);
    assert.deepEqual(
      result.extensions.map((e) => [e.extension.name, e.level, e.source]),
      [["guard", "project", path]],
    );
    assert.ok(existsSync(guard.marker));
  });
});

describe("trust is pinned to the content of the trusted surfaces", () => {
  for (const [what, change] of [
    ["editing a file", () => projectFile("guard.ts", `${marking("guard").text}// edited\n`)],
    ["adding a file", () => projectFile("extra.ts", marking("extra").text)],
    ["adding a helper in a sub-folder", () => projectFile("lib/helper.ts", "export const x = 1;\n")],
  ] as const) {
    test(`${what} makes the project "changed since trusted" and nothing of it is imported`, async () => {
      const guard = marking("guard");
      projectFile("guard.ts", guard.text);
      folders.store.trust(folders.project);
      change();
      assert.equal(folders.store.status(folders.project), "changed");
      assert.equal(folders.store.isTrusted(folders.project), false);
      const result = await run();
      assert.deepEqual(result.extensions, []);
      assert.ok(
        result.skipped.length >= 1 &&
          result.skipped.every((s) => s.reason === "changed since trusted" && s.level === "project"),
      );
      assert.equal(existsSync(guard.marker), false);
    });
  }

  test("flight recorder data under .harnessx/ does not untrust the project", async () => {
    projectFile("guard.ts", marking("guard").text);
    folders.store.trust(folders.project);
    writeFileIn(join(folders.project, ".harnessx", "runs", "run_1", "segment-0.jsonl"), "{}\n");
    writeFileIn(join(folders.project, ".harnessx", "artifacts", "ab", "cd"), "blob");
    writeFileIn(join(folders.project, ".harnessx", "notes.txt"), "anything outside the surfaces");
    assert.equal(folders.store.status(folders.project), "trusted");
    assert.equal((await run()).extensions.length, 1);
  });

  test("revoke makes the project untrusted again and reports whether it was trusted", async () => {
    projectFile("guard.ts", marking("guard").text);
    folders.store.trust(folders.project);
    assert.equal(folders.store.revoke(folders.project), true);
    assert.equal(folders.store.revoke(folders.project), false);
    assert.equal(folders.store.status(folders.project), "untrusted");
    assert.equal((await run()).skipped[0]!.reason, "untrusted");
  });

  test("trust survives a new store on the same file, which is private and versioned", async () => {
    projectFile("guard.ts", marking("guard").text);
    const record = folders.store.trust(folders.project);
    const again = new TrustStore(folders.store.file);
    assert.equal(again.isTrusted(folders.project), true);
    assert.deepEqual(again.list(), [record]);
    assert.equal((await run({ trustStore: again })).extensions[0]!.level, "project");
    const saved = JSON.parse(readFileSync(folders.store.file, "utf8")) as {
      format: string;
      version: number;
      projects: Record<string, unknown>;
    };
    assert.equal(saved.format, "harnessx.trust");
    assert.equal(saved.version, 1);
    assert.deepEqual(Object.keys(saved.projects), [record.dir]);
    assert.equal(statSync(folders.store.file).mode & 0o777, 0o600);
  });

  test("a symlinked folder is neither digested by content nor loaded", async () => {
    const outside = join(folders.root, "outside");
    writeFileIn(join(outside, "index.ts"), marking("linked").text);
    mkdirSync(join(folders.project, ".harnessx", "extensions"), { recursive: true });
    symlinkSync(outside, join(folders.project, ".harnessx", "extensions", "linked"), "dir");
    folders.store.trust(folders.project);
    writeFileIn(join(outside, "index.ts"), `${marking("linked").text}// edited\n`);
    assert.equal(folders.store.status(folders.project), "trusted");
    assert.deepEqual((await run()).extensions, []);
    assert.equal(existsSync(join(folders.root, "linked.imported")), false);
  });
});

describe("a bad trust file is a typed error naming the file", () => {
  for (const [what, text, problem] of [
    ["malformed JSON", "{ not json", /not valid JSON/],
    ["another format", JSON.stringify({ format: "other", version: 1, projects: {} }), /not a harnessx trust file/],
    [
      "another version",
      JSON.stringify({ format: "harnessx.trust", version: 2, projects: {} }),
      /version 2 is not supported/,
    ],
    [
      "a malformed record",
      JSON.stringify({ format: "harnessx.trust", version: 1, projects: { "/p": { digest: 1 } } }),
      /record of \/p/,
    ],
  ] as const) {
    test(what, async () => {
      writeFileIn(folders.store.file, text);
      projectFile("guard.ts", marking("guard").text);
      const isBad = (err: unknown) =>
        err instanceof TrustStoreError &&
        err.code === "trust_store" &&
        err.file === folders.store.file &&
        err.message.includes(folders.store.file) &&
        problem.test(err.message);
      assert.throws(() => folders.store.status(folders.project), isBad);
      await assert.rejects(run(), isBad);
    });
  }
});
