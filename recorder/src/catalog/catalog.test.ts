// The run catalog: every writer of a run.json tells it, readers fold the snapshot and the logs
// (the entry written last wins), a compaction or a rebuild gives the same view, and torn,
// damaged, oversized or hostile lines and files are skipped rather than trusted.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { tempFolders } from "@harnessx/core/test-support";
import { makeFifo } from "../../../test/support/system.js";
import { catalogDirOf } from "../format/layout.js";
import { FlightRecorderExtension } from "../recording/flight-recorder.js";
import { RecordingStore } from "../store/recording-store.js";
import { readRunManifest } from "../store/run-manifest.js";
import { scriptedAgent } from "../test-support/agents.js";
import { catalogRunOf, type CatalogEntry, type CatalogRun } from "./catalog-entry.js";
import { logName, SNAPSHOT_FILE } from "./catalog-files.js";
import { MAX_CATALOG_LINE_BYTES } from "./catalog-lines.js";
import { compactCatalog } from "./compact-catalog.js";
import { readCatalog, type CatalogView } from "./read-catalog.js";

const folders = tempFolders("hx-catalog-");
const child = new URL("../test-support/catalog-child.ts", import.meta.url).pathname;

/** Records `count` one-call runs into `dir` through the real recorder; their ids, oldest first. */
async function record(
  dir: string,
  count: number,
  extra: Partial<ConstructorParameters<typeof FlightRecorderExtension>[0]> = {},
) {
  const steps = Array.from({ length: count }, (_, i) =>
    i === 5 ? { error: new Error(`provider down ${i}`) } : { text: "done", usage: { inputTokens: 4, outputTokens: 2 } },
  );
  const agent = scriptedAgent(steps, [new FlightRecorderExtension({ dir, ...extra })], "cataloged");
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await agent.run(`run ${i}`)).runId);
  await agent.close();
  return ids;
}

function viewOf(read: Awaited<ReturnType<typeof readCatalog>>): CatalogView {
  if ("missing" in read) assert.fail(read.missing);
  return read;
}

/** The runs of a view, by folder, without the times their entries were written. */
function runsOf(view: CatalogView): Record<string, CatalogRun | null> {
  return Object.fromEntries([...view.entries].sort(([a], [b]) => a.localeCompare(b)).map(([f, e]) => [f, e.run]));
}

/** What the runs' own run.json files say, as the catalog keeps it. */
async function fromManifests(dir: string): Promise<Record<string, CatalogRun>> {
  const out: Record<string, CatalogRun> = {};
  for (const folder of readdirSync(join(dir, "runs")).sort())
    out[folder] = catalogRunOf(await readRunManifest(join(dir, "runs", folder)));
  return out;
}

describe("the run catalog", () => {
  test("a store without a snapshot reads as missing; a rebuild then holds every run as its run.json says", async () => {
    const dir = folders.root;
    const ids = await record(dir, 6);
    const before = await readCatalog(dir);
    assert.ok("missing" in before, "the logs alone are not a catalog: a store older than it has runs they never saw");
    const result = await compactCatalog(dir, { rebuild: true });
    assert.deepEqual(result, { done: true, runs: 6, foldedLogs: 1 });
    const view = viewOf(await readCatalog(dir));
    assert.deepEqual(runsOf(view), await fromManifests(dir));
    assert.deepEqual(Object.keys(runsOf(view)).sort(), [...ids].sort());
    assert.deepEqual(
      ids.map((id) => view.entries.get(id)?.run?.status),
      ["completed", "completed", "completed", "completed", "completed", "failed"],
    );
    assert.match(view.entries.get(ids[5]!)?.run?.error?.message ?? "", /provider down 5|has none/);
  });

  test("the live catalog, compacted from the recorder's logs, equals one rebuilt from the runs", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    await record(dir, 5);
    const live = viewOf(await readCatalog(dir));
    assert.equal(live.entries.size, 5, "runs recorded after the snapshot are read from the log");
    await compactCatalog(dir, { graceMs: 0 });
    const compacted = viewOf(await readCatalog(dir));
    rmSync(catalogDirOf(dir), { recursive: true });
    await compactCatalog(dir, { rebuild: true });
    const rebuilt = viewOf(await readCatalog(dir));
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
    assert.equal(viewOf(await readCatalog(dir)).entries.size, 3);
  });

  test("of a folder's entries the one written last wins, whichever file holds it", async () => {
    const dir = folders.root;
    const [id] = await record(dir, 1);
    await compactCatalog(dir, { rebuild: true });
    const entry = viewOf(await readCatalog(dir)).entries.get(id!)!;
    const older: CatalogEntry = { ...entry, writtenAt: entry.writtenAt - 1, run: { ...entry.run!, status: "running" } };
    const newer: CatalogEntry = { ...entry, writtenAt: entry.writtenAt + 1, run: { ...entry.run!, status: "crashed" } };
    // An older state in a newer log changes nothing; a newer state in an older log wins.
    appendFileSync(join(catalogDirOf(dir), logName(9)), `${JSON.stringify(older)}\n`);
    assert.equal(viewOf(await readCatalog(dir)).entries.get(id!)?.run?.status, "completed");
    appendFileSync(join(catalogDirOf(dir), logName(1)), `${JSON.stringify(newer)}\n`);
    assert.equal(viewOf(await readCatalog(dir)).entries.get(id!)?.run?.status, "crashed");
  });

  test("a torn line is skipped and the next writer's line stays whole", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    const log = join(catalogDirOf(dir), logName(2));
    appendFileSync(log, '{"folder":"torn","writtenAt":1,"run":{"runId":"to');
    const [id] = await record(dir, 1);
    const view = viewOf(await readCatalog(dir));
    assert.equal(view.entries.get(id!)?.run?.status, "completed");
    assert.equal(view.entries.has("torn"), false);
    assert.equal(view.skippedLines, 1);
  });

  test("lines that are not entries, and lines over the limit, are skipped and counted", async () => {
    const dir = folders.root;
    const [id] = await record(dir, 1);
    await compactCatalog(dir, { rebuild: true });
    const good = viewOf(await readCatalog(dir)).entries.get(id!)!;
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
    ];
    appendFileSync(join(catalogDirOf(dir), logName(2)), `${lines.join("\n")}\n`);
    const view = viewOf(await readCatalog(dir));
    assert.deepEqual([...view.entries.keys()].sort(), [id!, "e"].sort());
    assert.equal(view.skippedLines, 6);
  });

  test("a damaged snapshot reads as missing, and a FIFO in place of a file does not hang the reader", async () => {
    const dir = folders.root;
    await record(dir, 1);
    await compactCatalog(dir, { rebuild: true });
    writeFileSync(join(catalogDirOf(dir), SNAPSHOT_FILE), '{"format":"something else"}\n');
    const damaged = await readCatalog(dir);
    assert.ok("missing" in damaged && /does not start with a catalog header/.test(damaged.missing));
    rmSync(join(catalogDirOf(dir), SNAPSHOT_FILE));
    makeFifo(join(catalogDirOf(dir), SNAPSHOT_FILE));
    const fifo = await readCatalog(dir);
    assert.ok("missing" in fifo && /cannot be read/.test(fifo.missing), JSON.stringify(fifo));
    rmSync(join(catalogDirOf(dir), SNAPSHOT_FILE));
    await compactCatalog(dir, { rebuild: true });
    makeFifo(join(catalogDirOf(dir), logName(7)));
    const view = viewOf(await readCatalog(dir));
    assert.equal(view.entries.size, 1);
    assert.equal(view.skippedLines, 1, "the unreadable log counts as skipped");
  });

  test("a run deleted by size retention leaves the catalog (a tombstone until compacted a day later)", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    const ids = await record(dir, 4, { maxBytes: 1 });
    const view = viewOf(await readCatalog(dir));
    const kept = readdirSync(join(dir, "runs"));
    for (const id of ids) assert.equal(view.entries.get(id)?.run !== null, kept.includes(id), id);
    assert.ok(
      ids.some((id) => view.entries.get(id)?.run === null),
      "some run was deleted",
    );
  });

  test("a run reduced by tail retention is in the catalog with its summary", async () => {
    const dir = folders.root;
    await compactCatalog(dir, { rebuild: true });
    const [id] = await record(dir, 1, { retain: { always: [] } });
    const run = viewOf(await readCatalog(dir)).entries.get(id!)?.run;
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
    const view = viewOf(await readCatalog(dir));
    assert.equal(view.entries.size, 80);
    assert.equal(view.skippedLines, 0);
    assert.deepEqual(runsOf(view), await fromManifests(dir));
    const store = new RecordingStore(dir);
    assert.equal((await store.listRuns()).length, 80);
  });
});
