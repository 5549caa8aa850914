import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { firstArrayElements, prettyPrintJson } from "./json-text.js";
import { csvHead, sniffCsv } from "./csv.js";
import { compilePattern } from "./search.js";
import { resolveRetention } from "./options.js";
import { ConfigError } from "@harnessx/core";

const tricky = {
  empty: {},
  list: [],
  nested: [[], [{}], { a: [1, 2, { b: null }] }],
  text: 'quote " backslash \\ brace { bracket ] comma , colon : unicode é 😀 newline \n tab \t',
  escapedTail: "ends with backslash \\",
  numbers: [0, -1.5e10, 3.25, 1e-7],
  flags: [true, false, null],
};

describe("JSON is re-indented without parsing it", () => {
  test("matches JSON.stringify(value, null, 2) on tricky input, whatever the original spacing", () => {
    const compact = JSON.stringify(tricky);
    const spaced = JSON.stringify(tricky, null, 5).replace(/\n/g, "\r\n");
    assert.equal(prettyPrintJson(compact).toString("utf8"), JSON.stringify(tricky, null, 2));
    assert.equal(prettyPrintJson(spaced).toString("utf8"), JSON.stringify(tricky, null, 2));
  });

  test("a top-level array of rows", () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ i, s: `v"${i}` }));
    assert.equal(prettyPrintJson(JSON.stringify(rows)).toString("utf8"), JSON.stringify(rows, null, 2));
  });

  test("first elements of an array are read from its head only", () => {
    const rows = [{ a: "x,]}" }, [1, [2]], "s", 4, { b: {} }];
    const text = ` [ ${rows.map((r) => JSON.stringify(r)).join(" ,\n ")} ] `;
    assert.deepEqual(
      firstArrayElements(text, 3, 10_000).map((e) => JSON.parse(e)),
      rows.slice(0, 3),
    );
    assert.deepEqual(
      firstArrayElements(text, 99, 10_000).map((e) => JSON.parse(e)),
      rows,
    );
  });
});

describe("CSV is recognised by its structure", () => {
  test("quoted delimiters and newlines do not count as fields or records", () => {
    const text = 'a,b,c\n1,"x, y",3\n2,"multi\nline",4\n';
    const head = sniffCsv(text);
    assert.equal(head?.delimiter, ",");
    assert.equal(head?.fields, 3);
    assert.deepEqual(head?.recordEnds.length, 3);
    assert.equal(csvHead(text, head!, 20), 'a,b,c\n1,"x, y",3\n');
  });

  test("tab and semicolon delimiters; prose is not a table", () => {
    assert.equal(sniffCsv("a\tb\n1\t2\n3\t4\n")?.delimiter, "\t");
    assert.equal(sniffCsv("a;b;c\n1;2;3\n")?.delimiter, ";");
    assert.equal(sniffCsv("Hello, world.\nThis is, I think, prose with commas.\n"), undefined);
  });
});

describe("options and patterns are checked", () => {
  test("regex flags: /source/flags is accepted with i, s, u only", () => {
    assert.equal(compilePattern("/abc/i").flags, "gim");
    assert.throws(() => compilePattern("/abc/y"), /flags may be i, s or u/);
  });

  test("retention accepts session, milliseconds and durations", () => {
    assert.equal(resolveRetention("session"), "session");
    assert.equal(resolveRetention(5_000), 5_000);
    assert.equal(resolveRetention("2h"), 7_200_000);
    assert.equal(resolveRetention(undefined), 86_400_000);
    assert.throws(() => resolveRetention("forever" as never), ConfigError);
    assert.throws(() => resolveRetention(-1), ConfigError);
  });
});
