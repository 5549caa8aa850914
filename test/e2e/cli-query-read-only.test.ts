// `trace query` reads the recording and nothing else: statements that write, attach, install or
// reach other files are refused (exit 2, naming --allow-write) and leave no file behind;
// --allow-write lets them run.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, recordSupportRun, snapshot } from "@harnessx/cli/test-support";

const cli = cliWorkspace();

let runId: string;
let bundle: string;

before(async () => {
  runId = (await recordSupportRun(cli.store)).runId;
  bundle = join(cli.work, "run.tar");
  assert.equal((await cli.trace("export", runId, "-o", bundle)).code, 0);
});
after(() => cli.cleanup());

const REFUSED: Array<[string, (out: string) => string]> = [
  ["COPY TO", (out) => `COPY (SELECT * FROM events) TO '${out}'`],
  [
    "COPY TO a segment file",
    () =>
      `COPY (SELECT 1) TO '${join(cli.store, "runs", runId, "segments", "000001.ndjson.zst")}' (USE_TMP_FILE false)`,
  ],
  ["ATTACH a file", (out) => `ATTACH '${out}' AS other`],
  ["ATTACH in memory", () => "ATTACH ':memory:' AS other"],
  ["INSTALL", () => "INSTALL httpfs"],
  ["LOAD", () => "LOAD httpfs"],
  ["a table", () => "CREATE TABLE t AS SELECT 1 AS x"],
  ["a setting", () => "SET enable_external_access = true"],
  ["EXPORT DATABASE", (out) => `EXPORT DATABASE '${out}'`],
  ["reading another file", () => "SELECT * FROM read_csv('/etc/passwd')"],
  ["a write after a SELECT", (out) => `SELECT 1; COPY (SELECT 1) TO '${out}'`],
  // The recording's tables are views: DuckDB fails these while binding, before their type is known.
  ["DELETE", () => "DELETE FROM events"],
  ["UPDATE", () => "/* fix the names */ UPDATE spans SET name = 'x'"],
];

describe("trace query is read-only without --allow-write", () => {
  for (const [what, sql] of REFUSED) {
    test(`${what} is refused with exit 2 and nothing is written`, async () => {
      const out = join(cli.work, "written.out");
      const before = snapshot(cli.work);
      for (const target of [runId, bundle]) {
        const r = await cli.trace("query", target, sql(out));
        assert.equal(r.code, 2, `${target}: ${r.stderr}`);
        assert.match(r.stderr, /^trace: trace query is read-only: .*; pass --allow-write/);
      }
      const all = await cli.trace("query", "--all", sql(out));
      assert.equal(all.code, 2, all.stderr);
      assert.deepEqual(snapshot(cli.work), before, "nothing written or changed");
    });
  }
  test("reading queries still work: SELECT, WITH, EXPLAIN, DESCRIBE, SHOW TABLES, SUMMARIZE", async () => {
    for (const sql of [
      "SELECT count(*) AS n FROM events",
      "WITH x AS (SELECT * FROM spans) SELECT count(*) FROM x",
      "EXPLAIN SELECT * FROM events",
      "DESCRIBE events",
      "SHOW TABLES",
      "SUMMARIZE events",
      "PRAGMA version",
    ]) {
      const r = await cli.trace("query", runId, sql);
      assert.equal(r.code, 0, `${sql}: ${r.stderr}`);
    }
  });
  test("view is read-only too and still works", async () => {
    assert.equal((await cli.trace("view", runId, "tools")).code, 0);
  });
});

describe("--allow-write lets SQL write", () => {
  test("COPY TO writes the file; ATTACH creates a database", async () => {
    const csv = join(cli.work, "events.csv");
    const r = await cli.trace(
      "query",
      runId,
      `COPY (SELECT seq, kind FROM events ORDER BY seq) TO '${csv}' (HEADER)`,
      "--allow-write",
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(readFileSync(csv, "utf8"), /^seq,kind\n1,agent_start\n/);
    const db = join(cli.work, "copy.duckdb");
    const a = await cli.trace(
      "query",
      bundle,
      `ATTACH '${db}' AS other; CREATE TABLE other.spans AS SELECT * FROM spans`,
      "--allow-write",
    );
    assert.equal(a.code, 0, a.stderr);
    assert.ok(existsSync(db));
  });
});
