import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { probe } from "./test-support/event-loop-probe.js";
import { SpillHarness, snapshot, tempStore } from "./test-support/spill-harness.js";

const LIMIT_MS = 400;
/** A refusal at a time limit must come this soon after it: the query process's own interrupt, or its kill. */
const PROMPT_MS = LIMIT_MS + 1_500;

const tmp = tempStore();
const scratch = mkdtempSync(join(tmpdir(), "harnessx-spill-scratch-"));
let h: SpillHarness;
let resultId: string;
const rows = Array.from({ length: 1_000 }, (_, i) => ({ id: i, name: `row ${i}`, amount: i * 2 }));

before(async () => {
  h = new SpillHarness(tmp.store, {
    thresholdBytes: 1_000,
    limits: { queryTimeoutMs: LIMIT_MS, searchTimeoutMs: LIMIT_MS },
  });
  resultId = (await h.spill(JSON.stringify(rows))).resultId;
});
after(async () => {
  await h.close();
  tmp.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** Sends the SQL; asserts it is refused within PROMPT_MS, the table and the store are unchanged. */
async function refused(sql: string, why: RegExp): Promise<void> {
  const storeBefore = snapshot(tmp.root);
  const { value: result } = await probe(() => h.read({ resultId, op: "query", sql }), PROMPT_MS);
  assert.equal(result.isError, true, `expected a refusal for ${sql}, got ${result.content}`);
  assert.match(result.content, why);
  assert.deepEqual(snapshot(tmp.root), storeBefore, "the store is unchanged");
  const check = await h.read({ resultId, op: "query", sql: "SELECT count(*) AS n, sum(amount) AS total FROM result" });
  assert.deepEqual(JSON.parse(check.content).rows, [{ n: rows.length, total: rows.reduce((s, r) => s + r.amount, 0) }]);
}

describe("SQL cannot reach files", () => {
  test("read_csv('/etc/passwd')", () => refused("SELECT * FROM read_csv('/etc/passwd')", /disabled by configuration/));
  test("read_text", () => refused("SELECT content FROM read_text('/etc/hostname')", /disabled by configuration/));
  test("glob", () => refused("SELECT * FROM glob('/etc/*')", /disabled by configuration/));
  test("a file named in FROM", () => refused("SELECT * FROM '/etc/passwd'", /the query was refused/));
  test("a CSV file named in FROM", () => refused("SELECT * FROM '/etc/hosts.csv'", /the query was refused/));
  test("ATTACH creates no database file", async () => {
    const file = join(scratch, "attached.duckdb");
    await refused(`ATTACH '${file}' AS other`, /only a SELECT is allowed, this is a ATTACH/);
    assert.equal(existsSync(file), false);
  });
  test("COPY ... TO writes nothing", async () => {
    const file = join(scratch, "out.csv");
    await refused(`COPY result TO '${file}'`, /refused|only a SELECT/);
    assert.equal(existsSync(file), false);
  });
});

describe("SQL cannot change the sandbox", () => {
  test("INSTALL", () => refused("INSTALL httpfs", /only a SELECT is allowed, this is a LOAD/));
  test("LOAD", () => refused("LOAD httpfs", /only a SELECT is allowed, this is a LOAD/));
  test("SET", () => refused("SET enable_external_access = true", /only a SELECT is allowed, this is a SET/));
  test("PRAGMA", () => refused("PRAGMA threads = 4", /only a SELECT is allowed/));
  test("two statements joined by ;", () => refused("SELECT 1; DROP TABLE result", /exactly one SQL statement; got 2/));
  test("CREATE", () =>
    refused("CREATE TABLE stolen AS SELECT * FROM result", /only a SELECT is allowed, this is a CREATE/));
  test("INSERT", () => refused("INSERT INTO result (id) VALUES (99999)", /only a SELECT is allowed, this is a INSERT/));
  test("DELETE", () => refused("DELETE FROM result", /only a SELECT is allowed, this is a DELETE/));
  test("UPDATE", () => refused("UPDATE result SET amount = 0", /only a SELECT is allowed, this is a UPDATE/));
  test("DROP", () => refused("DROP TABLE result", /only a SELECT is allowed, this is a DROP/));
  test("empty and unparsable SQL", async () => {
    await refused("   ", /sql is empty/);
    await refused("SELEC * FROM result", /does not parse/);
  });
});

describe("SQL cannot run forever", () => {
  test("an endless recursive CTE is interrupted by the time limit and the table still answers", () =>
    refused(
      "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t",
      /stopped after 400 ms \(time limit\)/,
    ));
  test("a huge cross join is interrupted", () => refused("SELECT count(*) FROM range(1000000000000) a", /time limit/));
  test("constant folding while preparing is stopped too", () =>
    refused("SELECT len(list_filter(range(60000000), x -> x % 7 = 0))", /time limit/));
  // Found by read-result.fuzz.test.ts against the in-process sandbox: a constant list built in prepare.
  test("unnest(range(100000000)) is stopped by a limit", () =>
    refused("SELECT unnest(range(100000000)) AS i", /time limit|more memory than allowed/));
});

describe("read_result only reads this session's results", () => {
  test("a resultId spilled by another session is unknown here", async () => {
    const other = new SpillHarness(tmp.store, { thresholdBytes: 1_000 });
    try {
      const foreign = (await other.spill(JSON.stringify(rows.map((r) => ({ ...r, secret: "other session" })))))
        .resultId;
      const before = snapshot(tmp.root);
      const result = await h.read({ resultId: foreign, op: "slice" });
      assert.equal(result.isError, true);
      assert.match(result.content, /no spilled result res_[0-9a-f]{16} in this session/);
      assert.deepEqual(snapshot(tmp.root), before);
    } finally {
      await other.close();
    }
  });

  for (const bad of ["../../../etc/passwd", "/etc/passwd", "res_../../x", "a".repeat(64)]) {
    test(`a path or raw id is refused: ${bad.slice(0, 24)}`, async () => {
      const before = snapshot(tmp.root);
      const result = await h.read({ resultId: bad, op: "slice" });
      assert.equal(result.isError, true);
      assert.match(result.content, /resultId must be an id like "res_0123456789abcdef"/);
      assert.deepEqual(snapshot(tmp.root), before);
    });
  }
});

describe("search cannot hang on a catastrophic regular expression", () => {
  test("(a+)+$ over long runs of a is stopped at the time limit, then search works again", async () => {
    const text = Array.from({ length: 200 }, (_, i) => `${"a".repeat(40)}! line ${i}`).join("\n");
    const id = (await h.spill(text)).resultId;
    const before = snapshot(tmp.root);
    const { value: slow } = await probe(
      () => h.read({ resultId: id, op: "search", pattern: "^(a+)+$", regex: true }),
      PROMPT_MS,
    );
    assert.equal(slow.isError, true);
    assert.match(slow.content, /did not finish within 400 ms/);
    assert.deepEqual(snapshot(tmp.root), before);
    const fine = await h.read({ resultId: id, op: "search", pattern: "line 1\\d\\d$", regex: true });
    assert.equal(fine.isError, false);
    assert.match(fine.content, /^\[more than 50 matches|^\[\d+ matches/);
    assert.match(fine.content, /\n101:a+! line 100/);
  });

  test("an invalid pattern gets an actionable error", async () => {
    const result = await h.read({ resultId, op: "search", pattern: "(unclosed", regex: true });
    assert.equal(result.isError, true);
    assert.match(result.content, /not a valid JavaScript regular expression/);
  });
});
