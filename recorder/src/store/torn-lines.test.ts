import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readRun, recover } from "../index.js";
import { writeSealed } from "../recording/seal.js";
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
      const damaged = Buffer.concat([
        complete.subarray(0, complete.length - 4),
        INVALID_UTF8,
        complete.subarray(complete.length - 4),
      ]);
      const tail = Buffer.concat([Buffer.from('{"v":1,"seq":3,"kind":"to'), INVALID_UTF8]);
      const runDir = writeHandMadeRun(dir, "run_utf8", [Buffer.concat([damaged, tail])]);
      const read = await readRun(runDir);
      assert.equal(read.tornBytes, tail.length);
      assert.deepEqual(
        read.events.map((e) => e.seq),
        [1, 2],
        "invalid UTF-8 inside a string decodes to U+FFFD; the line is kept",
      );
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
      const runDir = writeHandMadeRun(dir, "run_tail", [
        Buffer.concat([Buffer.from(eventLine("run_tail", 1, "agent_start")), tail]),
      ]);
      const read = await readRun(runDir);
      assert.equal(read.tornBytes, tail.length);
      assert.equal(read.events.length, 1);
    } finally {
      cleanup();
    }
  });
});

describe("a kill between a seal and the removal of its plain file", () => {
  test("the seal is read once, and recover removes the plain copy it left", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const first = eventLine("run_seal", 1, "agent_start") + eventLine("run_seal", 2, "custom");
      const runDir = writeHandMadeRun(dir, "run_seal", [first, eventLine("run_seal", 3, "custom")]);
      const firstPlain = join(runDir, "segments", "000001.ndjson");
      await writeSealed(firstPlain, readFileSync(firstPlain));
      assert.deepEqual(
        (await readRun(runDir)).events.map((e) => e.seq),
        [1, 2, 3],
        "segment 1 read from its seal, not twice",
      );
      const result = await recover(runDir);
      assert.equal(result.status, "crashed");
      assert.deepEqual(
        readdirSync(join(runDir, "segments")).filter((n) => n.endsWith(".ndjson")),
        [],
        "no plain file left",
      );
      assert.deepEqual(
        (await readRun(runDir)).events.map((e) => e.seq),
        [1, 2, 3, 4],
      );
    } finally {
      cleanup();
    }
  });
});
