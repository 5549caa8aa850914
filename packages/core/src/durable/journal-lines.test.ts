// How a journal's bytes become lines: a line may arrive in pieces (a store reads a chunk at a
// time), the bytes after the last newline are a torn line, and the limit counts a line's bytes only.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { JournalLineSplitter, piecesOf } from "./journal-lines.js";
import { ResumeError } from "./resume-error.js";

const text = (lines: Buffer[]) => lines.map((line) => line.toString("utf8"));

describe("JournalLineSplitter", () => {
  test("a line cut across chunks comes out whole, once its newline arrives", () => {
    const splitter = new JournalLineSplitter("run_a", 100);
    assert.deepEqual(text(splitter.push(Buffer.from("o"))), []);
    assert.deepEqual(text(splitter.push(Buffer.from("ne\ntw"))), ["one"]);
    assert.deepEqual(text(splitter.push(Buffer.from("o"))), []);
    assert.deepEqual(text(splitter.push(Buffer.from("-and-a-bit\nthree\nfo"))), ["two-and-a-bit", "three"]);
    assert.equal(splitter.end(), 2, "the torn last line's bytes");
    assert.deepEqual(text(splitter.push(Buffer.from("ur\n"))), ["four"]);
    assert.equal(splitter.end(), 0);
  });

  test("the limit applies to each line's own bytes, not to where it starts in the chunk", () => {
    const splitter = new JournalLineSplitter("run_a", 4);
    assert.deepEqual(text(splitter.push(Buffer.from("abcd\nefgh\nijkl"))), ["abcd", "efgh"]);
    assert.equal(splitter.end(), 4, "a torn line of exactly the limit is held");
    assert.throws(
      () => splitter.push(Buffer.from("m")),
      (error: unknown) =>
        error instanceof ResumeError &&
        error.problem === "journal_too_large" &&
        /^line 3 of the journal of run_a is longer than the 4 bytes/.test(error.message),
    );
  });
});

describe("piecesOf (a journal held whole)", () => {
  test("its lines, and a torn piece only when bytes follow the last newline", () => {
    assert.deepEqual(
      [...piecesOf("run_a", Buffer.from("a\nbc\n"))].map((p) => ("line" in p ? p.line.toString() : p)),
      ["a", "bc"],
    );
    assert.deepEqual(
      [...piecesOf("run_a", Buffer.from("a\nbc"))].map((p) => ("line" in p ? p.line.toString() : p)),
      ["a", { tornBytes: 2 }],
    );
    assert.deepEqual([...piecesOf("run_a", Buffer.alloc(0))], []);
  });
});
