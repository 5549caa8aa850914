import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { SpillHarness, tempStore } from "./test-support/spill-harness.js";

/** ~50 MB JSON array of objects; one row carries a unique needle. */
const ROWS = 360_000;
const NEEDLE_ROW = 271_828;
const REGIONS = ["eu", "us", "apac", "latam"];
interface Row {
  id: number;
  name: string;
  region: string;
  amount: number;
  active: boolean;
  note: string;
}
function rowAt(i: number): Row {
  return {
    id: i,
    name: i === NEEDLE_ROW ? "needle-in-haystack" : `customer number ${i}`,
    region: REGIONS[i % REGIONS.length],
    amount: ((i * 7919) % 100_000) / 100,
    active: i % 3 !== 0,
    note: `lorem ipsum dolor sit amet consectetur ${i % 97}`,
  };
}
/** Pretty-printed: "[" then 8 lines per row ("  {", 6 fields, "  },"). */
const LINES_PER_ROW = 8;
const firstLineOfRow = (i: number) => 2 + LINES_PER_ROW * i;

const tmp = tempStore();
let h: SpillHarness;
let resultId: string;
let bytes = 0;

before(async () => {
  h = new SpillHarness(tmp.store, { limits: { queryTimeoutMs: 30_000, searchTimeoutMs: 30_000 } });
  const parts: string[] = [];
  for (let i = 0; i < ROWS; i++) parts.push(JSON.stringify(rowAt(i)));
  const content = `[${parts.join(",")}]`;
  bytes = Buffer.byteLength(content);
  assert.ok(bytes > 50_000_000, `the fixture is ${bytes} bytes`);
  const env = await h.spill(content);
  assert.equal(env.kind, "json_array_of_objects");
  assert.equal(env.rows, ROWS);
  resultId = env.resultId;
});
after(async () => {
  await h.close();
  tmp.cleanup();
});

describe("read_result answers correctly on a 50 MB JSON array", () => {
  test("query: an aggregate equals the JavaScript computation", async () => {
    const expected = new Map<string, { n: number; total: number }>();
    for (let i = 0; i < ROWS; i++) {
      const r = rowAt(i);
      if (!r.active) continue;
      const e = expected.get(r.region) ?? { n: 0, total: 0 };
      e.n++;
      e.total += Math.round(r.amount * 100);
      expected.set(r.region, e);
    }
    const result = await h.read({
      resultId,
      op: "query",
      sql: "SELECT region, count(*) AS n, CAST(round(sum(amount) * 100) AS BIGINT) AS cents FROM result WHERE active GROUP BY region ORDER BY region",
    });
    assert.equal(result.isError, false, result.content);
    const answer = JSON.parse(result.content);
    const want = [...expected.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([region, e]) => ({ region, n: e.n, cents: e.total }));
    assert.deepEqual(answer.rows, want);
  });

  test("query: a point lookup finds the needle row", async () => {
    const result = await h.read({ resultId, op: "query", sql: "SELECT * FROM result WHERE name LIKE 'needle%'" });
    assert.deepEqual(JSON.parse(result.content).rows, [rowAt(NEEDLE_ROW)]);
  });

  test("query: a large answer is capped with a note", async () => {
    const answer = JSON.parse(
      (await h.read({ resultId, op: "query", sql: "SELECT id FROM result ORDER BY id" })).content,
    );
    assert.equal(answer.rows.length, 200);
    assert.deepEqual(answer.rows[199], { id: 199 });
    assert.match(answer.note, /only the first 200 rows/);
  });

  test("slice by lines pages the pretty-printed JSON, deep inside the one-line document", async () => {
    const i = 123_456;
    const result = await h.read({
      resultId,
      op: "slice",
      unit: "lines",
      start: firstLineOfRow(i),
      count: LINES_PER_ROW,
    });
    assert.equal(result.isError, false, result.content);
    const [header, ...lines] = result.content.split("\n");
    assert.match(
      header,
      new RegExp(
        `^\\[lines ${firstLineOfRow(i)}-${firstLineOfRow(i) + LINES_PER_ROW - 1} of ${2 + LINES_PER_ROW * ROWS}`,
      ),
    );
    assert.deepEqual(JSON.parse(lines.join("\n").replace(/,\s*$/, "")), rowAt(i));
    assert.equal(lines.join("\n"), `${JSON.stringify(rowAt(i), null, 2).replace(/^/gm, "  ")},`);
  });

  test("slice by characters returns the exact range of the pretty-printed text", async () => {
    const pretty = JSON.stringify([rowAt(0), rowAt(1)], null, 2);
    const result = await h.read({ resultId, op: "slice", unit: "chars", start: 10, count: 120 });
    const body = result.content.slice(result.content.indexOf("\n") + 1);
    assert.equal(body, pretty.slice(10, 130));
    assert.match(result.content, /next: unit "chars", start=130/);
  });

  test("search (literal and regex) gives line numbers and context", async () => {
    const line = firstLineOfRow(NEEDLE_ROW) + 2;
    for (const input of [{ pattern: "needle-in-haystack" }, { pattern: '"name": "needle-[\\w-]+"', regex: true }]) {
      const result = await h.read({ resultId, op: "search", ...input });
      assert.equal(result.isError, false, result.content);
      assert.match(result.content, /^\[1 match for /);
      assert.ok(result.content.includes(`\n${line}:    "name": "needle-in-haystack",`), result.content);
      assert.ok(result.content.includes(`\n${line - 1}-    "id": ${NEEDLE_ROW},`), result.content);
      assert.ok(result.content.includes(`\n${line + 1}-    "region": "${rowAt(NEEDLE_ROW).region}",`), result.content);
    }
  });

  test("search output is capped", async () => {
    const result = await h.read({ resultId, op: "search", pattern: "lorem" });
    assert.match(result.content, /^\[more than 50 matches/);
    assert.ok(result.content.length <= 12_500);
  });

  test("schema: row count, typed columns and sample rows", async () => {
    const schema = JSON.parse((await h.read({ resultId, op: "schema" })).content);
    assert.equal(schema.rows, ROWS);
    assert.equal(schema.bytes, bytes);
    assert.deepEqual(schema.columns, [
      { name: "id", type: "BIGINT" },
      { name: "name", type: "VARCHAR" },
      { name: "region", type: "VARCHAR" },
      { name: "amount", type: "DOUBLE" },
      { name: "active", type: "BOOLEAN" },
      { name: "note", type: "VARCHAR" },
    ]);
    assert.deepEqual(schema.sampleRows, [0, 1, 2, 3, 4].map(rowAt));
  });
});

describe("read_result explains bad ranges and inputs", () => {
  test("a slice past the end says how long the result is", async () => {
    const result = await h.read({ resultId, op: "slice", start: 999_999_999 });
    assert.equal(result.isError, true);
    assert.match(result.content, new RegExp(`has ${2 + LINES_PER_ROW * ROWS} lines`));
  });

  test("search without a pattern and query without sql are refused clearly", async () => {
    assert.match((await h.read({ resultId, op: "search" })).content, /needs pattern/);
    assert.match((await h.read({ resultId, op: "query" })).content, /needs sql/);
  });

  test("input outside the schema is refused by validation", async () => {
    const result = await h.read({ resultId, op: "delete" });
    assert.equal(result.isError, true);
    assert.match(result.content, /invalid input for "read_result"/);
  });
});
