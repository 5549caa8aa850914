import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ArtifactStore, ArtifactNotFoundError, ArtifactCorruptError, sha256Hex } from "./index.js";
import { zstdDecompress } from "./zstd/index.js";
import { tempDir } from "../../../test/support/system.js";

describe("artifacts are content-addressed, compressed and deduplicated", () => {
  test("put returns the sha256 of the uncompressed bytes and get returns them", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = new ArtifactStore(dir);
      const text = "hello artifact ".repeat(1000);
      const stored = await store.put(text);
      assert.deepEqual(stored, { sha256: sha256Hex(text), bytes: Buffer.byteLength(text) });
      assert.equal((await store.get(stored.sha256)).toString(), text);
      const onDisk = readFileSync(store.pathOf(stored.sha256));
      assert.ok(onDisk.length < text.length / 10, "stored compressed");
      assert.equal((await zstdDecompress(onDisk)).toString(), text, "stored as a plain zstd frame");
      assert.equal(await store.has(stored.sha256), true);
    } finally {
      cleanup();
    }
  });

  test("the same content is stored once", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = new ArtifactStore(dir);
      const a = await store.put(Buffer.from("same"));
      const b = await store.put("same");
      assert.equal(a.sha256, b.sha256);
      assert.deepEqual(await store.list(), [a.sha256]);
      assert.deepEqual(readdirSync(join(dir, "artifacts", "tmp")), [], "no temp files left");
    } finally {
      cleanup();
    }
  });

  test("several processes putting the same and different content agree", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const entry = new URL("./index.ts", import.meta.url).pathname;
      const script = `import { ArtifactStore } from ${JSON.stringify(entry)};
        const s = new ArtifactStore(${JSON.stringify(dir)});
        const out = [];
        for (let i = 0; i < 20; i++) out.push((await s.put("shared-" + (i % 5))).sha256, (await s.put("own-" + process.pid + "-" + i)).sha256);
        await s.pin(out[0], "proc:" + process.pid);
        console.log(JSON.stringify(out));`;
      const runs = await Promise.all([0, 1, 2].map(() => runChild(script)));
      const store = new ArtifactStore(dir);
      const ids = new Set(runs.flatMap((r) => JSON.parse(r) as string[]));
      assert.equal(ids.size, 5 + 3 * 20);
      assert.deepEqual(new Set(await store.list()), ids);
      for (const id of ids) assert.equal(sha256Hex(await store.get(id)), id);
      assert.equal((await store.holders(sha256Hex("shared-0"))).length, 3);
    } finally {
      cleanup();
    }
  });
});

describe("ids are validated and never used as paths", () => {
  test("unknown and invalid ids throw ArtifactNotFoundError", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = new ArtifactStore(dir);
      await assert.rejects(store.get("0".repeat(64)), ArtifactNotFoundError);
      for (const bad of ["../../etc/passwd", "ABC", "0".repeat(63), `${"0".repeat(64)}/..`, "G".repeat(64)]) {
        await assert.rejects(
          store.get(bad),
          (e: unknown) => e instanceof ArtifactNotFoundError && /invalid artifact id/.test(e.message),
        );
        assert.equal(await store.has(bad), false);
      }
      await assert.rejects(store.pin("../x", "run:1"), ArtifactNotFoundError);
      await assert.rejects(store.pin("0".repeat(64), "run:1"), ArtifactNotFoundError, "pinning an unknown artifact");
    } finally {
      cleanup();
    }
  });

  test("a damaged file is reported as corrupt, not returned", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = new ArtifactStore(dir);
      const { sha256 } = await store.put("original content");
      const other = await store.put("other content");
      writeFileSync(store.pathOf(sha256), readFileSync(store.pathOf(other.sha256)));
      await assert.rejects(store.get(sha256), ArtifactCorruptError);
      writeFileSync(store.pathOf(sha256), "junk");
      await assert.rejects(store.get(sha256), ArtifactCorruptError);
    } finally {
      cleanup();
    }
  });
});

describe("pins keep artifacts alive", () => {
  test("deleteIfUnpinned deletes only when no holder remains", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = new ArtifactStore(dir);
      const { sha256 } = await store.put("pinned data");
      await store.pin(sha256, "run:abc");
      await store.pin(sha256, "spill:s/../1");
      assert.deepEqual((await store.holders(sha256)).sort(), ["run:abc", "spill:s/../1"]);
      assert.equal(await store.deleteIfUnpinned(sha256), false);
      await store.unpin(sha256, "run:abc");
      assert.equal(await store.deleteIfUnpinned(sha256), false);
      await store.unpin(sha256, "spill:s/../1");
      assert.equal(await store.deleteIfUnpinned(sha256), true);
      assert.equal(await store.has(sha256), false);
      await assert.rejects(store.get(sha256), ArtifactNotFoundError);
      assert.equal(await store.deleteIfUnpinned(sha256), false, "already gone");
    } finally {
      cleanup();
    }
  });
});

function runChild(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`child exited ${code}`))));
  });
}
