// The line walk and the base64 reading under the private-key rules (key-body.ts, private-keys.ts),
// tested on their own: exact bounds, so that an edge off by one shows.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { base64Core, forEachLine, hasLines } from "./text-lines.js";

function lines(text: string): string[] {
  const found: string[] = [];
  forEachLine(text, (start, end) => void found.push(text.slice(start, end)));
  return found;
}

/** base64Core over the whole text, with the core as text. */
function core(text: string) {
  const found = base64Core(text, 0, text.length);
  return found && { core: text.slice(found.start, found.end), padded: found.padded, loose: found.loose };
}

describe("forEachLine", () => {
  test("real line ends, once or in a row, each end one break", () => {
    assert.deepEqual(lines("a\nb\r\nc"), ["a", "b", "c"]);
    assert.deepEqual(lines("\n\na\n\n\nb\n"), ["a", "b"]);
    assert.deepEqual(lines("one line"), ["one line"]);
    assert.deepEqual(lines(""), []);
  });

  test("escaped line ends, escaped once or more, break as real ones do", () => {
    assert.deepEqual(lines(String.raw`a\nb\r\nc`), ["a", "b", "c"]);
    assert.deepEqual(lines(String.raw`a\\nb\\\r\\\nc`), ["a", "b", "c"]);
    assert.deepEqual(lines(String.raw`\n\nkey\n`), ["key"]);
  });

  test("bounds are offsets into the text, and a visit returning false stops the walk", () => {
    const bounds: Array<[number, number]> = [];
    forEachLine("ab\n\ncd\nef", (start, end) => {
      bounds.push([start, end]);
      return bounds.length < 2;
    });
    assert.deepEqual(bounds, [
      [0, 2],
      [4, 6],
    ]);
  });
});

describe("hasLines", () => {
  test("counts real line ends up to the number asked", () => {
    assert.equal(hasLines("a\nb", 2), true);
    assert.equal(hasLines("a\nb", 3), false);
    assert.equal(hasLines("a\nb\nc", 3), true);
    assert.equal(hasLines("abc", 1), true);
  });

  test("any escaped break or carriage return may make lines: the walk decides", () => {
    assert.equal(hasLines(String.raw`a\nb`, 5), true);
    assert.equal(hasLines(String.raw`a\rb`, 5), true);
    assert.equal(hasLines("a\rb", 5), true);
  });
});

describe("base64Core", () => {
  test("a bare line, padding and closing characters", () => {
    assert.deepEqual(core("QUJDRA"), { core: "QUJDRA", padded: false, loose: false });
    assert.deepEqual(core('  "QUJDRA==",'), { core: "QUJDRA==", padded: true, loose: false });
    for (const close of [",", ";", ")", "]", "}", "'", "`", "\\", "\t"]) {
      assert.deepEqual(core(`QUJDRA${close}`), { core: "QUJDRA", padded: false, loose: false }, close);
    }
    assert.equal(core("QUJDRA!"), undefined);
    assert.equal(core('"=="'), undefined);
  });

  test('a line of a key spelled out in code ends before " +"; a + right after base64 is base64', () => {
    assert.deepEqual(core('  "QUJDRA==" +'), { core: "QUJDRA==", padded: true, loose: false });
    assert.deepEqual(core("  'QUJD' + "), { core: "QUJD", padded: false, loose: false });
    assert.deepEqual(core("QUJD+"), { core: "QUJD+", padded: false, loose: false });
    assert.deepEqual(core("+"), { core: "+", padded: false, loose: false });
  });

  test("after a grep or cat line number the line is still a line of its own", () => {
    for (const prefix of ["12:", "12-", "    12\t", "1234567890:", "        7:"]) {
      assert.deepEqual(core(`${prefix}QUJDRA`), { core: "QUJDRA", padded: false, loose: false }, prefix);
    }
    assert.deepEqual(core('12:  "QUJDRA",'), { core: "QUJDRA", padded: false, loose: false });
  });

  test("a number too long, indented too far or with another separator is other text", () => {
    assert.deepEqual(core("12345678901:QUJDRA"), { core: "QUJDRA", padded: false, loose: true });
    assert.deepEqual(core("         1:QUJDRA"), { core: "QUJDRA", padded: false, loose: true });
    assert.equal(core("12.QUJDRA"), undefined);
    assert.equal(core("12=QUJDRA"), undefined);
  });

  test("after other text, only a quote, a space, : or > leave the line loose; anything else is not a key line", () => {
    for (const before of ['"', "'", " ", ":", ">"]) {
      assert.deepEqual(core(`key${before}QUJDRA`), { core: "QUJDRA", padded: false, loose: true }, before);
    }
    for (const before of ["=", "(", "[", "<", ".", "|", "_"])
      assert.equal(core(`key${before}QUJDRA`), undefined, before);
  });

  test("bounds inside a longer text are kept to the line's", () => {
    const text = "xx\n12:QUJD==\nyy";
    const found = base64Core(text, 3, 12);
    assert.deepEqual(found, { start: 6, end: 12, padded: true, loose: false });
  });
});
