// The run catalog under kills and concurrency: a compaction killed at each of its steps, a
// recorder killed between a run.json and its catalog line, and two recording processes with a
// compaction on one store, each leaving every run listed exactly once, as its run.json says.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { tempFolders } from "@harnessx/core/test-support";
import { catalogDirOf } from "../format/layout.js";
import { RecordingStore } from "../store/recording-store.js";
import { fromManifests, openWhole, readComplete, readWhole, record, runsOf } from "../test-support/catalog-runs.js";
import { logName, SNAPSHOT_FILE } from "./catalog-files.js";
import { compactCatalog } from "./compact-catalog.js";
import { COMPACT_LOG_BYTES, compactInBackground, compactWhenLarge } from "./background-compaction.js";
import { appendEntries } from "./publish-run.js";

const folders = tempFolders("hx-catalog-crash-");
const child = new URL("../test-support/catalog-child.ts", import.meta.url).pathname;

describe("the run catalog, killed and shared", () => {
  test("a compaction killed at any step leaves every run listed exactly once, as its run.json says", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    await record(dir, 3);
    const cat = catalogDirOf(dir);
    const expected = await fromManifests(dir);
    const snapshotBefore = readFileSync(join(cat, SNAPSHOT_FILE), "utf8");
    const logBefore = readFileSync(join(cat, logName(1)), "utf8");
    const check = async (state: string) => {
      const opened = await openWhole(dir);
      assert.deepEqual(opened.notes, [], state);
      assert.deepEqual(Object.fromEntries([...opened.entries].map(([folder, e]) => [folder, e.run])), expected, state);
    };
    // (1) killed after starting the new log: the snapshot and every log are as before, plus an empty log.
    writeFileSync(join(cat, logName(2)), "");
    writeFileSync(join(cat, "compact.lock"), "999999999\n");
    await check("after the new log, before the snapshot");
    // (2) killed while writing the snapshot: its temporary file is left beside the old one.
    writeFileSync(join(cat, `${SNAPSHOT_FILE}.tmp-999999999`), snapshotBefore.slice(0, 100));
    await check("with a half-written temporary snapshot");
    // (3) killed after the snapshot, before the folded log was deleted: the log is read again, to no effect.
    await compactCatalog(dir, { graceMs: 0 });
    writeFileSync(join(cat, logName(1)), logBefore);
    await check("after the snapshot, before the folded log was deleted");
    // (4) and the next compaction, taking over the dead holder's lock, leaves the same.
    writeFileSync(join(cat, "compact.lock"), "999999999\n");
    assert.equal((await compactCatalog(dir, { graceMs: 0 })).done, true);
    await check("after the next compaction");
    assert.deepEqual(readdirSync(cat).filter((n) => n.startsWith("log-")).length, 1);
  });

  test("a recorder killed between its run.json and its catalog line: the next reader finds the run by its folder", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    const [first, second] = await record(dir, 2);
    // The second run's lines never reached the log, as if the process died just after its run.json.
    const log = join(catalogDirOf(dir), logName(1));
    writeFileSync(
      log,
      readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => !line.includes(second!))
        .join("\n"),
    );
    const opened = await openWhole(dir);
    assert.deepEqual([...opened.entries.keys()].sort(), [first, second].sort());
    assert.equal(opened.entries.get(second!)?.run?.status, "completed");
    assert.equal(opened.notes.length, 1);
    assert.deepEqual((await openWhole(dir)).notes, [], "and wrote it in: the next reader is told nothing");
  });

  test("a log past its size is compacted in the background by the recording process", async () => {
    const dir = folders.root;
    const [id] = await record(dir, 1);
    const entry = (await readWhole(dir)).entries.get(id!)!;
    // Some 7,000 runs' entries of the same shape, as if recorded: the log passes COMPACT_LOG_BYTES.
    const many = Array.from({ length: 7000 }, (_, i) => ({
      ...entry,
      folder: `run_${i}`,
      run: { ...entry.run!, runId: `run_${i}` },
    }));
    appendEntries(dir, many);
    for (const e of many) mkdirSync(join(dir, "runs", e.folder));
    assert.ok(statSync(join(catalogDirOf(dir), logName(1))).size >= COMPACT_LOG_BYTES);
    compactWhenLarge(dir);
    const result = await compactInBackground(dir);
    assert.deepEqual(result, { done: true, runs: 7001, foldedLogs: 1 });
    assert.deepEqual(readdirSync(catalogDirOf(dir)).sort(), [logName(2), SNAPSHOT_FILE]);
    assert.equal((await readComplete(dir)).entries.size, 7001);
  });

  test("two recording processes and a compaction on one store: every run once, as its run.json says", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    const runChild = () =>
      new Promise<void>((resolve, reject) => {
        const proc = spawn(process.execPath, ["--import", "tsx", child, dir, "40"], { stdio: "inherit" });
        proc.on("error", reject);
        proc.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`child exited ${code}`))));
      });
    const compactions = (async () => {
      let done = 0;
      for (let i = 0; i < 6; i++) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        if ((await compactCatalog(dir, { graceMs: 50 })).done) done++;
      }
      return done;
    })();
    await Promise.all([runChild(), runChild()]);
    assert.ok((await compactions) > 0);
    const view = await readComplete(dir);
    assert.equal(view.entries.size, 80);
    assert.equal(view.skippedLines, 0);
    assert.deepEqual(runsOf(view), await fromManifests(dir));
    const store = new RecordingStore(dir);
    assert.equal((await store.listRuns()).length, 80);
  });
});
