// The run catalog: every writer of a run.json tells it, readers fold the snapshot and the logs
// (the entry written last wins), a compaction or a rebuild gives the same view, and torn,
// damaged, oversized or hostile lines and files are skipped rather than trusted.
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { tempFolders } from "@harnessx/core/test-support";
import { makeFifo } from "../../../test/support/system.js";
import { catalogDirOf } from "../format/layout.js";
import type { CatalogEntry, CatalogRun } from "./catalog-entry.js";
import { RecordingStore } from "../store/recording-store.js";
import { logName, SNAPSHOT_FILE } from "./catalog-files.js";
import { MAX_CATALOG_LINE_BYTES } from "./catalog-lines.js";
import { compactCatalog } from "./compact-catalog.js";
import { fromManifests, openWhole, readComplete, readWhole, record, runsOf } from "../test-support/catalog-runs.js";

const folders = tempFolders("hx-catalog-");

describe("the run catalog", () => {
  test("a new store's runs are in its logs; a rebuild gives each as its run.json says", async () => {
    const dir = folders.root;
    const ids = await record(dir, 6);
    const logs = await readWhole(dir);
    assert.match(logs.snapshotProblem ?? "", /no snapshot yet/);
    assert.deepEqual(runsOf(logs), await fromManifests(dir));
    const result = await compactCatalog(dir, { rebuild: true });
    assert.deepEqual(result, { done: true, runs: 6, foldedLogs: 1 });
    const view = await readComplete(dir);
    assert.deepEqual(runsOf(view), await fromManifests(dir));
    assert.deepEqual(Object.keys(runsOf(view)).sort(), [...ids].sort());
    assert.deepEqual(
      ids.map((id) => view.entries.get(id)?.run?.status),
      ["completed", "completed", "completed", "completed", "completed", "failed"],
    );
    assert.match(view.entries.get(ids[5]!)?.run?.error?.message ?? "", /provider down 5|has none/);
  });

  test("a store recorded before the catalog: the first reader reads its folders, says so, and writes them in", async () => {
    const dir = folders.root;
    await record(dir, 3);
    rmSync(catalogDirOf(dir), { recursive: true });
    mkdirSync(join(dir, "runs", "not-a-run"));
    const first = await openWhole(dir);
    assert.deepEqual(first.notes, [
      `the run catalog did not list 4 run folder(s) (the run catalog has no snapshot yet (${join(catalogDirOf(dir), SNAPSHOT_FILE)})): read from their run.json and added`,
    ]);
    assert.match(first.entries.get("not-a-run")?.problem ?? "", /has no run\.json/);
    const { "not-a-run": _invalid, ...runs } = runsOf(await readWhole(dir));
    assert.deepEqual(runs, await fromManifests(dir));
    const second = await openWhole(dir);
    assert.deepEqual(second.notes, [], "the second reader reads the catalog alone");
    assert.equal(second.entries.size, 4);
  });

  test("a folder deleted by hand leaves the listing; one whose line a kill cut off joins it", async () => {
    const dir = folders.root;
    const [gone, kept] = await record(dir, 2);
    rmSync(join(dir, "runs", gone!), { recursive: true });
    const lost = join(catalogDirOf(dir), logName(1));
    writeFileSync(lost, "");
    const opened = await openWhole(dir);
    assert.deepEqual([...opened.entries.keys()], [kept]);
    assert.equal(opened.notes.length, 1);
  });

  test("the live catalog, compacted from the recorder's logs, equals one rebuilt from the runs", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    await record(dir, 5);
    const live = await readComplete(dir);
    assert.equal(live.entries.size, 5, "runs recorded after the snapshot are read from the log");
    await compactCatalog(dir, { graceMs: 0 });
    const compacted = await readComplete(dir);
    rmSync(catalogDirOf(dir), { recursive: true });
    await compactCatalog(dir, { rebuild: true });
    const rebuilt = await readComplete(dir);
    assert.deepEqual(runsOf(live), await fromManifests(dir));
    assert.deepEqual(runsOf(compacted), runsOf(live));
    assert.deepEqual(runsOf(rebuilt), runsOf(live));
    const ended = [...live.entries.values()].map((e) => e.run!);
    assert.ok(ended.every((run) => run.status !== "running" && run.summary!.events > 0 && run.cost !== null));
  });

  test("a compaction folds the logs into the snapshot and deletes them; new runs go to a newer log", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    await record(dir, 2);
    const result = await compactCatalog(dir, { graceMs: 0 });
    assert.deepEqual(result, { done: true, runs: 2, foldedLogs: 1 });
    assert.deepEqual(readdirSync(catalogDirOf(dir)).sort(), [logName(2), SNAPSHOT_FILE]);
    await record(dir, 1);
    assert.equal((await readComplete(dir)).entries.size, 3);
  });

  test("of a folder's entries the one written last wins, whichever file holds it", async () => {
    const dir = folders.root;
    const [id] = await record(dir, 1);
    await compactCatalog(dir, { rebuild: true });
    const entry = (await readComplete(dir)).entries.get(id!)!;
    const older: CatalogEntry = { ...entry, writtenAt: entry.writtenAt - 1, run: { ...entry.run!, status: "running" } };
    const newer: CatalogEntry = { ...entry, writtenAt: entry.writtenAt + 1, run: { ...entry.run!, status: "crashed" } };
    // An older state in a newer log changes nothing; a newer state in an older log wins.
    appendFileSync(join(catalogDirOf(dir), logName(9)), `${JSON.stringify(older)}\n`);
    assert.equal((await readComplete(dir)).entries.get(id!)?.run?.status, "completed");
    appendFileSync(join(catalogDirOf(dir), logName(1)), `${JSON.stringify(newer)}\n`);
    assert.equal((await readComplete(dir)).entries.get(id!)?.run?.status, "crashed");
  });

  test("listing with a limit gives the newest runs that match, each once, as a full listing orders them", async () => {
    const dir = folders.root;
    const ids = await record(dir, 6);
    await compactCatalog(dir, { graceMs: 0 });
    const more = await record(dir, 2);
    const store = new RecordingStore(dir);
    const listing = await store.listRuns();
    const all = listing.map((r) => r.runId);
    assert.deepEqual([...all].sort(), [...ids, ...more].sort(), "logs and snapshot merged, each run once");
    assert.ok(
      listing.every((r, i) => i === 0 || listing[i - 1]!.startedAt >= r.startedAt),
      "newest first",
    );
    assert.deepEqual(
      (await store.listRuns({ limit: 3 })).map((r) => r.runId),
      all.slice(0, 3),
    );
    assert.deepEqual(
      (await store.listRuns({ limit: 1, where: (r) => r.status === "failed" })).map((r) => r.runId),
      [ids[5]],
    );
    // A newer state in a log replaces the snapshot's line in place; an older one does not.
    const snapshotEntry = (await readComplete(dir)).entries.get(ids[2]!)!;
    const log = join(catalogDirOf(dir), logName(2));
    const at = (writtenAt: number, status: CatalogRun["status"]) =>
      `${JSON.stringify({ ...snapshotEntry, writtenAt, run: { ...snapshotEntry.run, status } })}\n`;
    appendFileSync(log, at(snapshotEntry.writtenAt - 1, "running"));
    assert.equal(
      (await store.listRuns())
        .filter((r) => r.runId === ids[2])
        .map((r) => r.status)
        .join(),
      "completed",
    );
    appendFileSync(log, at(snapshotEntry.writtenAt + 1, "crashed"));
    const listed = await store.listRuns();
    assert.deepEqual(
      listed.map((r) => r.runId),
      all,
    );
    assert.equal(listed.find((r) => r.runId === ids[2])?.status, "crashed");
  });

  test("a torn line is skipped and the next writer's line stays whole", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    const log = join(catalogDirOf(dir), logName(2));
    appendFileSync(log, '{"folder":"torn","writtenAt":1,"run":{"runId":"to');
    const [id] = await record(dir, 1);
    const view = await readComplete(dir);
    assert.equal(view.entries.get(id!)?.run?.status, "completed");
    assert.equal(view.entries.has("torn"), false);
    assert.equal(view.skippedLines, 1);
  });

  test("lines that are not entries, and lines over the limit, are skipped and counted", async () => {
    const dir = folders.root;
    const [id] = await record(dir, 1);
    await compactCatalog(dir, { rebuild: true });
    const good = (await readComplete(dir)).entries.get(id!)!;
    const lines = [
      "not json",
      JSON.stringify({ ...good, folder: "" }),
      JSON.stringify({ ...good, folder: "a", run: { ...good.run, status: "exploded" } }),
      JSON.stringify({ ...good, folder: "b", run: { ...good.run, startedAt: "yesterday" } }),
      JSON.stringify({ ...good, folder: "c", run: { ...good.run, summary: { events: "many" } } }),
      JSON.stringify({
        ...good,
        folder: "d",
        writtenAt: good.writtenAt + 5,
        run: { ...good.run, agent: "x".repeat(MAX_CATALOG_LINE_BYTES) },
      }),
      JSON.stringify({ ...good, folder: "e", writtenAt: good.writtenAt + 5 }),
      // A folder name that would lead a reader out of runs/ (to a run.json planted elsewhere).
      JSON.stringify({ ...good, folder: "../../elsewhere", run: { ...good.run, endedAt: null } }),
      JSON.stringify({ ...good, folder: "..", run: { ...good.run, endedAt: null } }),
    ];
    appendFileSync(join(catalogDirOf(dir), logName(2)), `${lines.join("\n")}\n`);
    const view = await readComplete(dir);
    assert.deepEqual([...view.entries.keys()].sort(), [id!, "e"].sort());
    assert.equal(view.skippedLines, 8);
  });

  test("a damaged snapshot is reported and the logs still read; a FIFO in place of a file does not hang the reader", async () => {
    const dir = folders.root;
    await record(dir, 1);
    await compactCatalog(dir, { rebuild: true });
    writeFileSync(join(catalogDirOf(dir), SNAPSHOT_FILE), '{"format":"something else"}\n');
    const damaged = await readWhole(dir);
    assert.match(damaged.snapshotProblem ?? "", /does not start with a catalog header/);
    rmSync(join(catalogDirOf(dir), SNAPSHOT_FILE));
    makeFifo(join(catalogDirOf(dir), SNAPSHOT_FILE));
    const fifo = await readWhole(dir);
    assert.match(fifo.snapshotProblem ?? "", /cannot be read/);
    rmSync(join(catalogDirOf(dir), SNAPSHOT_FILE));
    await compactCatalog(dir, { rebuild: true });
    makeFifo(join(catalogDirOf(dir), logName(7)));
    const view = await readComplete(dir);
    assert.equal(view.entries.size, 1);
    assert.equal(view.skippedLines, 1, "the unreadable log counts as skipped");
  });

  test("a run deleted by size retention leaves the catalog: its entry says so, and a compaction drops it", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    const ids = await record(dir, 4, { maxBytes: 1 });
    const view = await readComplete(dir);
    const kept = readdirSync(join(dir, "runs"));
    for (const id of ids) assert.equal(view.entries.get(id)?.run !== null, kept.includes(id), id);
    assert.ok(
      ids.some((id) => view.entries.get(id)?.run === null),
      "some run was deleted",
    );
    await compactCatalog(dir, { graceMs: 0 });
    assert.deepEqual([...(await readComplete(dir)).entries.keys()].sort(), [...kept].sort());
    assert.deepEqual((await new RecordingStore(dir).listRuns()).map((r) => r.runId).sort(), [...kept].sort());
  });

  test("a run reduced by tail retention is in the catalog with its summary", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    const [id] = await record(dir, 1, { retain: { always: [] } });
    const run = (await readComplete(dir)).entries.get(id!)?.run;
    assert.equal(run?.detail, "summary");
    assert.equal(run?.status, "completed");
  });

  test("a second compaction while one holds the lock is told who holds it; a dead holder's lock is taken over", async () => {
    const dir = folders.root;
    mkdirSync(catalogDirOf(dir), { recursive: true });
    writeFileSync(join(catalogDirOf(dir), "compact.lock"), `${process.ppid}\n`);
    assert.deepEqual(await compactCatalog(dir, { rebuild: true }), { done: false, busyPid: process.ppid });
    writeFileSync(join(catalogDirOf(dir), "compact.lock"), "999999999\n");
    assert.equal((await compactCatalog(dir, { rebuild: true })).done, true);
  });
});
