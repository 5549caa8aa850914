// FileDurableStore on a real folder: which names it takes, when group lines reach the file, what a
// reader is refused, and that every file and folder it opens is synced as promised and closed.
import assert from "node:assert/strict";
import { promises as fsp, readFileSync, truncateSync, writeFileSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { journalDir } from "./durable-test-kit.js";
import { checkRunId, FileDurableStore, MAX_JOURNAL_BYTES } from "./file-durable-store.js";
import type { JournalPiece } from "./journal-lines.js";
import { ResumeError } from "./resume-error.js";

const refused = (problem: string, message: RegExp) => (error: unknown) =>
  error instanceof ResumeError &&
  error.problem === problem &&
  error.code === `resume_${problem}` &&
  message.test(error.message);

interface Opened {
  path: string;
  flags: unknown;
  syncs: number;
  datasyncs: number;
  reads: number;
  closed: boolean;
}

/**
 * Records every file and folder opened through `fs.promises.open` during the test, and what was
 * done with its handle; opening a path `refuse` names fails with the error code it gives.
 */
function watchOpens(t: TestContext, refuse: (path: string) => string | undefined = () => undefined): Opened[] {
  const opened: Opened[] = [];
  const open = fsp.open;
  t.mock.method(fsp, "open", async (path: string, flags?: unknown, mode?: number) => {
    const code = refuse(path);
    if (code) throw Object.assign(new Error(`${code}: cannot open ${path}`), { code });
    const handle: FileHandle = await open(path, flags as string, mode);
    const record: Opened = { path, flags, syncs: 0, datasyncs: 0, reads: 0, closed: false };
    opened.push(record);
    const { close, sync, datasync, read } = handle;
    handle.close = () => {
      record.closed = true;
      return close.call(handle);
    };
    handle.sync = () => {
      record.syncs++;
      return sync.call(handle);
    };
    handle.datasync = () => {
      record.datasyncs++;
      return datasync.call(handle);
    };
    handle.read = ((...args: Parameters<FileHandle["read"]>) => {
      record.reads++;
      return read.apply(handle, args);
    }) as FileHandle["read"];
    return handle;
  });
  return opened;
}

async function collect(pieces: AsyncIterable<JournalPiece> | undefined): Promise<Array<string | number>> {
  const out: Array<string | number> = [];
  for await (const piece of pieces ?? []) out.push("line" in piece ? piece.line.toString("utf8") : piece.tornBytes);
  return out;
}

describe("FileDurableStore", () => {
  test("a run id is run_ and 1 to 128 letters, digits, _ or -, the whole name", () => {
    for (const good of ["run_a", `run_${"x".repeat(128)}`, "run_A-9_z"]) assert.equal(checkRunId(good), good);
    for (const bad of [
      "run_",
      `run_${"x".repeat(129)}`,
      "x/run_a",
      "../run_a",
      "run_a/../../etc",
      "run_a.ndjson",
      "run_a\n",
    ]) {
      assert.throws(() => checkRunId(bad), refused("bad_run_id", /is not a run id/), bad);
    }
  });

  test("group lines wait for a synced append, a read or close; a synced append is on disk when it resolves", async () => {
    const { dir, cleanup } = journalDir();
    try {
      const path = join(dir, "run_g.ndjson");
      const store = new FileDurableStore(dir, { groupCommitMs: 1_000_000 });
      await store.append("run_g", "a\n", false);
      assert.equal(readFileSync(path, "utf8"), "", "queued, not written");
      await store.append("run_g", "b\n", true);
      assert.equal(readFileSync(path, "utf8"), "a\nb\n", "a synced append writes what was queued before it");
      await store.append("run_g", "c\n", false);
      assert.equal((await store.read("run_g"))?.toString("utf8"), "a\nb\nc\n", "a read sees every line appended");
      await store.append("run_g", "d\n", false);
      assert.deepEqual(await collect(await store.readLines("run_g")), ["a", "b", "c", "d"]);
      await store.append("run_g", "e\n", false);
      await store.close();
      assert.equal(readFileSync(path, "utf8"), "a\nb\nc\nd\ne\n", "close writes what was queued");
    } finally {
      cleanup();
    }
  });

  for (const [groupCommitMs, wait] of [
    [undefined, 50],
    [200, 200],
  ] as const) {
    test(`group lines reach the file on their own ${wait} ms after the first is queued (groupCommitMs ${groupCommitMs ?? "absent"})`, async (t) => {
      const { dir, cleanup } = journalDir();
      try {
        t.mock.timers.enable({ apis: ["setTimeout"] });
        const opened = watchOpens(t);
        const path = join(dir, "run_t.ndjson");
        const store = new FileDurableStore(dir, groupCommitMs === undefined ? {} : { groupCommitMs });
        await store.append("run_t", "a\n", false);
        t.mock.timers.tick(wait - 1);
        // A group commit the tick set off would be writing "a" alone by now.
        await new Promise((resolve) => setImmediate(resolve));
        await store.append("run_t", "b\n", true);
        assert.equal(
          opened.find((o) => o.path === path)!.datasyncs,
          1,
          "a and b went in one write: nothing was committed before the delay",
        );
        await store.append("run_t", "c\n", false);
        t.mock.timers.tick(1);
        // Nothing else forces "c" out: only the group commit can write it.
        while (readFileSync(path, "utf8") !== "a\nb\nc\n") await new Promise((resolve) => setImmediate(resolve));
        await store.close();
      } finally {
        cleanup();
      }
    });
  }

  test("a new journal's folder is synced once, an existing journal's not; each write is datasynced once; every handle is closed", async (t) => {
    const { dir, cleanup } = journalDir();
    try {
      const opened = watchOpens(t);
      const store = new FileDurableStore(dir);
      await store.append("run_s", "a\n", true);
      await store.append("run_s", "b\n", true);
      await store.close();
      const folder = opened.filter((o) => o.path === dir);
      assert.deepEqual(
        folder.map((o) => [o.flags, o.syncs, o.closed]),
        [["r", 1, true]],
        "the folder of the new file is synced, then closed",
      );
      const journal = opened.find((o) => o.path === join(dir, "run_s.ndjson"))!;
      assert.deepEqual(
        [journal.datasyncs, journal.closed],
        [2, true],
        "two synced appends, two datasyncs; close has nothing left to write",
      );
      const again = new FileDurableStore(dir);
      await again.append("run_s", "c\n", true);
      await again.close();
      assert.equal(opened.filter((o) => o.path === dir).length, 1, "an existing journal's name is already durable");
      assert.equal(readFileSync(join(dir, "run_s.ndjson"), "utf8"), "a\nb\nc\n");
      const lines = opened.length;
      assert.deepEqual(await collect(await again.readLines("run_s")), ["a", "b", "c"]);
      for await (const _ of (await again.readLines("run_s"))!) break;
      assert.deepEqual(
        opened.slice(lines).map((o) => o.closed),
        [true, true],
        "readLines closes its file at the end, and when the reader stops early",
      );
    } finally {
      cleanup();
    }
  });

  test("where a folder cannot be opened to sync it (Windows), the journal is still written", async (t) => {
    const { dir, cleanup } = journalDir();
    try {
      watchOpens(t, (path) => (path === dir ? "EISDIR" : undefined));
      const store = new FileDurableStore(dir);
      await store.append("run_w", "a\n", true);
      await store.close();
      assert.equal(readFileSync(join(dir, "run_w.ndjson"), "utf8"), "a\n");
    } finally {
      cleanup();
    }
  });

  test("readLines reads 1 MiB at a time, lines across its chunks whole, and gives a torn piece only for bytes after the last newline", async (t) => {
    const { dir, cleanup } = journalDir();
    try {
      const store = new FileDurableStore(dir);
      // Lines of 700 KiB: the second and fourth straddle the 1 MiB chunks readLines reads.
      const lines = ["a", "b", "c", "d"].map((c) => c.repeat(700 * 1024));
      writeFileSync(join(dir, "run_big.ndjson"), `${lines.join("\n")}\n`);
      const opened = watchOpens(t);
      assert.deepEqual(await collect(await store.readLines("run_big")), lines);
      assert.equal(opened[0]!.reads, 4, "2.8 MB in three reads of 1 MiB, and one that finds the end");
      writeFileSync(join(dir, "run_torn.ndjson"), "one\ntw");
      assert.deepEqual(await collect(await store.readLines("run_torn")), ["one", 2]);
      assert.equal(await store.readLines("run_none"), undefined);
      assert.equal(await store.read("run_none"), undefined);
    } finally {
      cleanup();
    }
  });

  test("an error of the file system other than a missing journal passes through as it is", async (t) => {
    const { dir, cleanup } = journalDir();
    try {
      writeFileSync(join(dir, "run_io.ndjson"), "a\n");
      watchOpens(t, (path) => (path.endsWith("run_io.ndjson") ? "EIO" : undefined));
      const store = new FileDurableStore(dir);
      await assert.rejects(
        store.read("run_io"),
        (error: unknown) => !(error instanceof ResumeError) && (error as NodeJS.ErrnoException).code === "EIO",
      );
      await assert.rejects(
        store.readLines("run_io"),
        (error: unknown) => !(error instanceof ResumeError) && (error as NodeJS.ErrnoException).code === "EIO",
      );
    } finally {
      cleanup();
    }
  });

  test("read takes a journal of any size up to MAX_JOURNAL_BYTES, and refuses a larger one before reading it", async () => {
    const { dir, cleanup } = journalDir();
    try {
      const store = new FileDurableStore(dir);
      const journal = "x".repeat(2 * 1024 * 1024);
      writeFileSync(join(dir, "run_mid.ndjson"), journal);
      assert.equal((await store.read("run_mid"))?.toString("utf8"), journal);
      // Sparse: the size says too large, no byte of it is written or read.
      writeFileSync(join(dir, "run_huge.ndjson"), "");
      truncateSync(join(dir, "run_huge.ndjson"), MAX_JOURNAL_BYTES + 1);
      await assert.rejects(
        store.read("run_huge"),
        refused(
          "journal_too_large",
          /^the journal of run_huge .*run_huge\.ndjson holds 536,870,913 bytes, more than the 536,870,912 a reader takes \(resume reads it a line at a time through readLines\)$/,
        ),
      );
    } finally {
      cleanup();
    }
  });
});
