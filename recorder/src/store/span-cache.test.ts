import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chownSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FlightRecorderExtension, openSegmentTables, runDirOf } from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";
import { keepSpanCache } from "./span-cache.js";

async function spanRowsOf(store: string, runDir: string): Promise<unknown[]> {
  const tables = await openSegmentTables(store, [runDir], { readOnly: true });
  try {
    return (await tables.connection.runAndReadAll("SELECT * FROM spans")).getRowObjectsJson();
  } finally {
    tables.close();
  }
}

const cache = tempDir();
const previous = process.env.HARNESSX_CACHE_DIR;
before(() => {
  process.env.HARNESSX_CACHE_DIR = cache.dir;
});
after(() => {
  if (previous === undefined) delete process.env.HARNESSX_CACHE_DIR;
  else process.env.HARNESSX_CACHE_DIR = previous;
  cache.cleanup();
});

const cachedFiles = (): string[] =>
  readdirSync(join(cache.dir, "spans"))
    .filter((name) => name.endsWith(".parquet"))
    .map((name) => join(cache.dir, "spans", name));

/** Rewrites a cache file with DuckDB (tool spans renamed), as a query that reads the cache would then show. */
async function renameInCache(store: string, runDir: string, file: string, name: string): Promise<void> {
  const tables = await openSegmentTables(store, [runDir], { spans: false });
  try {
    await tables.connection.run(
      `COPY (SELECT * REPLACE (CASE WHEN kind = 'tool' THEN '${name}' ELSE name END AS name) FROM read_parquet('${file}')) TO '${file}.new' (FORMAT parquet)`,
    );
  } finally {
    tables.close();
  }
  writeFileSync(file, readFileSync(`${file}.new`));
}

describe("an ended run's spans are mapped once, then read from the cache", () => {
  test("the cached rows are the mapped ones in the same order; a damaged file maps again; the store is not written", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const agent = scriptedAgent(echoScript(3), [new FlightRecorderExtension({ dir })]);
      const { runId } = await agent.run("go");
      await agent.close();
      const runDir = runDirOf(dir, runId);
      const stored = readdirSync(runDir).sort();
      const mapped = await spanRowsOf(dir, runDir);
      assert.equal(mapped.length, 8, "run, 4 model calls, 3 tool calls");
      const [file] = cachedFiles();
      assert.ok(file, "the first query kept the rows");
      assert.deepEqual(await spanRowsOf(dir, runDir), mapped);
      assert.deepEqual(readdirSync(runDir).sort(), stored, "the run's folder is as the recorder left it");

      // The cache is what the next query reads: rows edited in it show.
      await renameInCache(dir, runDir, file, "execute_tool edited");
      assert.ok(
        (await spanRowsOf(dir, runDir)).some((row) => (row as { name: string }).name === "execute_tool edited"),
      );

      // A file another user owns is not read (its name is no secret): the rows are mapped and kept anew.
      if (process.getuid?.() === 0) {
        chownSync(file, 4242, 4242);
        assert.deepEqual(await spanRowsOf(dir, runDir), mapped);
        assert.equal(statSync(file).uid, 0, "replaced by this user's own file");
      } else console.log("# skipped the other-owner case: changing a file's owner needs root");

      // A file that is not rows at all: the query still answers from the events, and keeps them again.
      writeFileSync(file, "not parquet");
      assert.deepEqual(await spanRowsOf(dir, runDir), mapped);
      assert.equal(readFileSync(file).subarray(0, 4).toString(), "PAR1");
    } finally {
      cleanup();
    }
  });

  test("with HARNESSX_CACHE_DIR=off nothing is kept", async () => {
    const { dir, cleanup } = tempDir();
    process.env.HARNESSX_CACHE_DIR = "off";
    try {
      const agent = scriptedAgent(echoScript(1), [new FlightRecorderExtension({ dir })]);
      const { runId } = await agent.run("go");
      await agent.close();
      const before = cachedFiles().length;
      assert.equal((await spanRowsOf(dir, runDirOf(dir, runId))).length, 4);
      assert.equal(cachedFiles().length, before);
    } finally {
      process.env.HARNESSX_CACHE_DIR = cache.dir;
      cleanup();
    }
  });
});

describe("the cache is pruned to its size limit, least recently used first", () => {
  test("a write prunes the oldest files over HARNESSX_CACHE_MAX_MB, and writes close together do not each scan the folder", async () => {
    const dir = tempDir();
    const limit = process.env.HARNESSX_CACHE_MAX_MB;
    process.env.HARNESSX_CACHE_MAX_MB = String(3_000 / (1024 * 1024)); // 3,000 bytes: room for three files
    try {
      const old = [1, 2, 3].map((i) => join(dir.dir, `old-${i}.parquet`));
      old.forEach((file, i) => {
        writeFileSync(file, Buffer.alloc(1_000));
        utimesSync(file, new Date(2020, 0, 1 + i), new Date(2020, 0, 1 + i));
      });
      const write = (name: string) =>
        keepSpanCache({ file: join(dir.dir, name) }, async (path) => writeFileSync(path, Buffer.alloc(1_000)));
      assert.equal(await write("new-1.parquet"), true);
      assert.deepEqual(
        readdirSync(dir.dir).sort(),
        ["new-1.parquet", "old-2.parquet", "old-3.parquet"].sort(),
        "the oldest went to make room",
      );
      assert.equal(await write("new-2.parquet"), true);
      assert.equal(readdirSync(dir.dir).length, 4, "the next write, moments later, does not scan the folder again");
    } finally {
      if (limit === undefined) delete process.env.HARNESSX_CACHE_MAX_MB;
      else process.env.HARNESSX_CACHE_MAX_MB = limit;
      dir.cleanup();
    }
  });
});
