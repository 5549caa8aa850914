// The catalog's line reader bounds each line, whatever a file holds, and the fold keeps the
// entry written last, of two in the same millisecond the one read last.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { tempFolders } from "@harnessx/core/test-support";
import type { CatalogEntry } from "./catalog-entry.js";
import { catalogLines, MAX_CATALOG_LINE_BYTES, type LineCounts } from "./catalog-lines.js";
import { catalogDirOf } from "../format/layout.js";
import { SNAPSHOT_FILE } from "./catalog-files.js";
import { keepLatest, MAX_CATALOG_HEADER_VALUES, readCatalog } from "./read-catalog.js";

const folders = tempFolders("hx-catalog-lines-");

async function linesOf(text: string, firstLineBytes?: number): Promise<{ lines: number[]; tooLong: number }> {
  const path = join(folders.root, "file.ndjson");
  writeFileSync(path, text);
  const counts: LineCounts = { tooLong: 0 };
  const lines: number[] = [];
  for await (const line of catalogLines(path, counts, firstLineBytes)) lines.push(line.length);
  return { lines, tooLong: counts.tooLong };
}

describe("catalogLines", () => {
  test("a line of exactly the limit is read; one byte more is skipped and counted, and the next line read", async () => {
    const at = "a".repeat(MAX_CATALOG_LINE_BYTES);
    assert.deepEqual(await linesOf(`${at}\nb\n`), { lines: [MAX_CATALOG_LINE_BYTES, 1], tooLong: 0 });
    assert.deepEqual(await linesOf(`${at}a\nb\n`), { lines: [1], tooLong: 1 });
  });

  test("lines across the reader's 4 MiB chunks come out whole; empty lines and a last line without newline too", async () => {
    const long = "x".repeat(700_000);
    const text = `${Array.from({ length: 8 }, () => long).join("\n")}\n\n\nlast`;
    assert.deepEqual(await linesOf(text), { lines: [...Array.from({ length: 8 }, () => 700_000), 4], tooLong: 0 });
  });

  test("the first line may be longer when the caller says so (a snapshot's header); the others may not", async () => {
    const header = "h".repeat(MAX_CATALOG_LINE_BYTES + 10);
    const other = "o".repeat(MAX_CATALOG_LINE_BYTES + 10);
    assert.deepEqual(await linesOf(`${header}\n${other}\nok\n`, MAX_CATALOG_LINE_BYTES * 2), {
      lines: [MAX_CATALOG_LINE_BYTES + 10, 2],
      tooLong: 1,
    });
  });
});

describe("keepLatest", () => {
  const entry = (writtenAt: number, status: "running" | "completed"): CatalogEntry =>
    ({ folder: "run_1", writtenAt, run: { status } }) as unknown as CatalogEntry;

  test("keeps the entry written last, whichever comes first", () => {
    for (const order of [
      [entry(2, "completed"), entry(1, "running")],
      [entry(1, "running"), entry(2, "completed")],
    ]) {
      const entries = new Map<string, CatalogEntry>();
      for (const e of order) keepLatest(entries, e);
      assert.equal(entries.get("run_1")?.run?.status, "completed");
    }
  });

  test("of two written in the same millisecond, the one read last (a run's start and end often are)", () => {
    const entries = new Map<string, CatalogEntry>();
    keepLatest(entries, entry(5, "running"));
    keepLatest(entries, entry(5, "completed"));
    assert.equal(entries.get("run_1")?.run?.status, "completed");
  });
});

describe("a snapshot's header", () => {
  test("a dense one is refused before it is decoded; a long one of run folders is read", async () => {
    const dir = folders.root;
    mkdirSync(catalogDirOf(dir), { recursive: true });
    const snapshot = join(catalogDirOf(dir), SNAPSHOT_FILE);
    writeFileSync(
      snapshot,
      `{"format":"harnessx.catalog","v":1,"through":0,"others":[],"runs":[${"0,".repeat(MAX_CATALOG_HEADER_VALUES)}0]}\n`,
    );
    assert.match((await readCatalog(dir)).snapshotProblem ?? "", /too dense to decode/);
    const runs = Array.from({ length: 60_000 }, (_, i) => `run_${String(i).padStart(20, "0")}`);
    writeFileSync(snapshot, `${JSON.stringify({ format: "harnessx.catalog", v: 1, through: 0, others: [], runs })}\n`);
    const view = await readCatalog(dir);
    assert.equal(view.snapshotProblem, undefined);
    assert.equal(view.snapshotRuns.length, 60_000);
  });
});
