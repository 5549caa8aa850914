import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { RegexRunner } from "./regex-runner.js";
import { searchView } from "./search.js";
import { sliceView } from "./slice.js";
import { TextView } from "./text-view.js";

const lines = Array.from(
  { length: 60 },
  (_, i) => `${i % 2 ? "café ☕" : "plain"} line ${i} ${i === 42 ? "😀 target" : ""}`,
);
const text = lines.join("\n");
const view = new TextView(Buffer.from(text, "utf8"), false);
const runner = new RegexRunner();
after(() => runner.close());

describe("views of non-ASCII text count characters and lines, not bytes", () => {
  test("slice by characters returns exactly text.slice(start, start + count)", () => {
    for (const [start, count] of [
      [0, 10],
      [7, 25],
      [300, 40],
      [text.indexOf("😀") - 3, 8],
    ]) {
      const out = sliceView(view, { unit: "chars", start, count }, 10_000);
      const body = out.slice(out.indexOf("\n") + 1);
      const expected = text.slice(start, start! + count!);
      // A surrogate pair is never split: the slice may stop one code unit early.
      assert.ok(
        body === expected || body === expected.slice(0, -1),
        `${start}/${count}: ${JSON.stringify(body)} vs ${JSON.stringify(expected)}`,
      );
      assert.match(out, new RegExp(`^\\[chars ${start}-${start! + body.length} of ${text.length} `));
    }
  });

  test("slice by lines returns the same lines", () => {
    const out = sliceView(view, { unit: "lines", start: 40, count: 5 }, 10_000);
    assert.equal(out.slice(out.indexOf("\n") + 1), lines.slice(39, 44).join("\n"));
  });

  test("literal and regex search report the right line after multi-byte characters", async () => {
    for (const [pattern, regex] of [
      ["😀 target", false],
      ["😀\\s+t\\w+", true],
    ] as const) {
      const out = await searchView(
        view,
        { pattern, regex, maxMatches: 5, timeoutMs: 5_000, maxChars: 5_000, context: 1 },
        runner,
      );
      assert.match(out, /^\[1 match for /);
      assert.ok(out.includes(`\n43:${lines[42]}`), out);
      assert.ok(out.includes(`\n42-${lines[41]}`), out);
    }
  });
});

describe("line seeking uses a sparse index and stays exact", () => {
  test("every line start is found, across index steps, with and without a final newline", () => {
    const samples = [
      "",
      "a",
      "a\n",
      "a\n\nb\n",
      Array.from({ length: 5_000 }, (_, i) => `l${i} é`).join("\n"),
      `${Array.from({ length: 3_073 }, (_, i) => `l${i}`).join("\n")}\n`,
    ];
    for (const text of samples) {
      const v = new TextView(Buffer.from(text, "utf8"), false);
      const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
      assert.equal(v.lineCount, lines.length);
      let offset = 0;
      lines.forEach((line, i) => {
        assert.equal(v.lineStart(i + 1), offset, `line ${i + 1}`);
        offset += Buffer.byteLength(line) + 1;
      });
      assert.equal(v.lineStart(lines.length + 1), -1);
    }
  });
});
