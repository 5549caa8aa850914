import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readRun, recover } from "../index.js";
import { eventLine, writeHandMadeRun } from "../test-support/hand-made-run.js";
import { tempDir } from "../../../test/support/system.js";

const INVALID_UTF8 = Buffer.from([0xff, 0xfe, 0xc3]);

describe("torn bytes are counted on the bytes, not on decoded text", () => {
  test("invalid UTF-8 inside complete lines and in the torn tail", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const complete = Buffer.concat([
        Buffer.from(eventLine("run_utf8", 1, "agent_start", { agent: "a" })),
        Buffer.from(eventLine("run_utf8", 2, "custom", { note: "x" })),
      ]);
      // A byte sequence that is not UTF-8 inside a complete line: decoding it grows the text.
      const damaged = Buffer.concat([complete.subarray(0, complete.length - 4), INVALID_UTF8, complete.subarray(complete.length - 4)]);
      const tail = Buffer.concat([Buffer.from('{"v":1,"seq":3,"kind":"to'), INVALID_UTF8]);
      const runDir = writeHandMadeRun(dir, "run_utf8", [Buffer.concat([damaged, tail])]);
      const read = await readRun(runDir);
      assert.equal(read.tornBytes, tail.length);
      assert.deepEqual(read.events.map((e) => e.seq), [1, 2], "invalid UTF-8 inside a string decodes to U+FFFD; the line is kept");
      const recovered = await recover(runDir);
      assert.equal(recovered.tornBytes, tail.length);
    } finally {
      cleanup();
    }
  });

  test("a torn tail alone", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const tail = Buffer.concat([Buffer.from('{"v":1,"se'), INVALID_UTF8]);
      const runDir = writeHandMadeRun(dir, "run_tail", [Buffer.concat([Buffer.from(eventLine("run_tail", 1, "agent_start")), tail])]);
      const read = await readRun(runDir);
      assert.equal(read.tornBytes, tail.length);
      assert.equal(read.events.length, 1);
    } finally {
      cleanup();
    }
  });
});
