import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { makeFifo, tempDir } from "../../../../test/support/system.js";
import { openRegularFile, readRegularFile, RefusedFileError } from "./regular-file.js";

let dir: string;
let cleanup: () => void;
before(() => ({ dir, cleanup } = tempDir("hx-regular-")));
after(() => cleanup());

const refused = (problem: string, message: RegExp) => (error: unknown) =>
  error instanceof RefusedFileError && error.problem === problem && message.test(error.message);

describe("only regular files are read", () => {
  test("a FIFO with no writer is refused at once, never waited on (opened, read, or followed through a link)", async () => {
    const fifo = join(dir, "journal.ndjson");
    makeFifo(fifo);
    const link = join(dir, "to-fifo");
    symlinkSync(fifo, link);
    await assert.rejects(
      readRegularFile(fifo, { maxBytes: 10 }),
      refused("not_a_regular_file", /journal\.ndjson is a FIFO \(named pipe\), not a regular file/),
    );
    await assert.rejects(openRegularFile(fifo), refused("not_a_regular_file", /FIFO/));
    await assert.rejects(
      openRegularFile(link, { followSymlinks: true }),
      refused("not_a_regular_file", /FIFO/),
      "the link's target is checked, after opening it",
    );
  });

  test("a link, a directory and a device are refused; a link to a file is read only when following is asked", async () => {
    const file = join(dir, "run.json");
    writeFileSync(file, "{}");
    const link = join(dir, "linked.json");
    symlinkSync(file, link);
    mkdirSync(join(dir, "folder"));
    await assert.rejects(
      readRegularFile(link, { maxBytes: 10 }),
      refused("not_a_regular_file", /linked\.json is a symbolic link/),
    );
    await assert.rejects(
      readRegularFile(join(dir, "folder"), { maxBytes: 10 }),
      refused("not_a_regular_file", /is a directory/),
    );
    await assert.rejects(
      readRegularFile("/dev/zero", { maxBytes: 10 }),
      refused("not_a_regular_file", /is a device/),
      "a file that never ends",
    );
    assert.equal((await readRegularFile(link, { maxBytes: 10, followSymlinks: true })).toString(), "{}");
    assert.equal((await readRegularFile(file, { maxBytes: 10 })).toString(), "{}");
  });

  test("a missing file is the file system's own error", async () => {
    await assert.rejects(readRegularFile(join(dir, "nothing"), { maxBytes: 10 }), { code: "ENOENT" });
  });
});

describe("the size limit", () => {
  test("exactly the limit is read; one byte more is refused, naming the file, the limit and how to raise it", async () => {
    const file = join(dir, "manifest.json");
    writeFileSync(file, Buffer.alloc(100_000, 0x61));
    assert.equal((await readRegularFile(file, { maxBytes: 100_000 })).byteLength, 100_000);
    await assert.rejects(
      readRegularFile(file, { maxBytes: 99_999, what: "the manifest", raise: "set X to raise it" }),
      (error: unknown) =>
        refused(
          "too_large",
          /^the manifest .*manifest\.json holds 100,000 bytes, more than the 99,999 a reader takes \(set X to raise it\)$/,
        )(error) && (error as RefusedFileError).limit === 99_999,
    );
  });

  test("an empty file reads as no bytes", async () => {
    const file = join(dir, "empty");
    writeFileSync(file, "");
    assert.equal((await readRegularFile(file, { maxBytes: 0 })).byteLength, 0);
  });
});
