import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { colorsFor } from "./colors.js";
import { formatBytes, formatDuration, parseSince, quantile } from "./format.js";
import { renderRows } from "./table.js";

describe("colours only on a terminal and never with NO_COLOR", () => {
  test("the four cases", () => {
    assert.equal(colorsFor({ isTTY: true }, {}, false).red("x"), "\u001b[31mx\u001b[39m");
    assert.equal(colorsFor({ isTTY: false }, {}, false).red("x"), "x");
    assert.equal(colorsFor({ isTTY: true }, { NO_COLOR: "1" }, false).red("x"), "x");
    assert.equal(colorsFor({ isTTY: true }, {}, true).red("x"), "x", "--no-color");
    assert.equal(
      colorsFor({ isTTY: true }, { NO_COLOR: "" }, false).red("x"),
      "\u001b[31mx\u001b[39m",
      "an empty NO_COLOR is unset",
    );
  });
});

describe("figures read well", () => {
  test("durations, bytes", () => {
    assert.deepEqual([0, 0.5, 42.4, 1500, 75_000].map(formatDuration), ["0ms", "0.50ms", "42ms", "1.50s", "1m15s"]);
    assert.deepEqual([10, 2048, 5 * 1024 * 1024].map(formatBytes), ["10 B", "2.0 KiB", "5.0 MiB"]);
  });
  test("--since: durations back from now or ISO dates; anything else is undefined", () => {
    const now = Date.UTC(2026, 0, 2);
    assert.equal(parseSince("2h", now), now - 7_200_000);
    assert.equal(parseSince("7d", now), now - 7 * 86_400_000);
    assert.equal(parseSince("2026-01-01", now), Date.UTC(2026, 0, 1));
    assert.equal(parseSince("yesterday", now), undefined);
  });
  test("nearest-rank quantiles", () => {
    assert.equal(quantile([1, 2, 3, 4], 0.5), 2);
    assert.equal(quantile([1, 2, 3, 4], 0.95), 4);
    assert.equal(quantile([], 0.5), null);
  });
});

describe("rows print as a table, JSON or CSV", () => {
  const rows = [
    { name: "a,b", n: 1n },
    { name: 'say "hi"', n: 2n },
  ];
  const columns = [
    { header: "name", value: (r: (typeof rows)[0]) => r.name },
    { header: "n", value: (r: (typeof rows)[0]) => r.n },
  ];
  test("CSV quotes what needs quoting; bigints print as numbers", () => {
    assert.equal(renderRows(rows, columns, { format: "csv" }), 'name,n\n"a,b",1\n"say ""hi""",2');
    assert.deepEqual(JSON.parse(renderRows(rows, columns, { format: "json" })), [
      { name: "a,b", n: 1 },
      { name: 'say "hi"', n: 2 },
    ]);
  });
  test("a plain table has no borders when not on a terminal", () => {
    assert.equal(renderRows(rows, columns), 'name      n\na,b       1\nsay "hi"  2');
  });
});
