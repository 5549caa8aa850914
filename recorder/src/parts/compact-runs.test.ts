// Compaction into Parquet partitions: the store's tables read the same before and after, each run
// exactly once, whatever step a kill -9 stops a compaction at, and with recorders writing beside it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { TABLE_NAMES } from "../format/table-columns.js";
import { runDirOf } from "../format/layout.js";
import { record } from "../test-support/catalog-runs.js";
import { recordRunWithArtifact } from "../test-support/agents.js";
import { eventLine, runManifest, writeHandMadeRun } from "../test-support/hand-made-run.js";
import { compactRuns, type CompactStep } from "./compact-runs.js";
import { committedParts, listPartFiles } from "./part-files.js";
import { openStoreTables } from "./store-tables.js";
import { tempDir } from "../../../test/support/system.js";

const folders = tempDir("hx-parts-");
const child = new URL("../test-support/compact-child.ts", import.meta.url).pathname;
const ORDER: Record<string, string> = {
  runs: "run_id",
  events: "run_id, seq",
  spans: "run_id, span_id",
  artifacts: "run_id, seq, sha256",
};

/** Every table's rows, in a fixed order: what a query over the store sees. */
async function tablesOf(dir: string): Promise<Record<string, unknown[]>> {
  const tables = await openStoreTables(dir, { readOnly: true });
  try {
    const out: Record<string, unknown[]> = {};
    for (const table of TABLE_NAMES) out[table] = await tables.query(`SELECT * FROM ${table} ORDER BY ${ORDER[table]}`);
    return out;
  } finally {
    tables.close();
  }
}

let base: string;
let expected: Record<string, unknown[]>;
before(async () => {
  base = join(folders.dir, "base");
  await record(base, 8);
  await recordRunWithArtifact(base);
  expected = await tablesOf(base);
  assert.equal(expected.runs?.length, 9);
  assert.ok((expected.artifacts?.length ?? 0) > 0);
});
after(() => folders.cleanup());

function copyOfBase(name: string): string {
  const dir = join(folders.dir, name);
  cpSync(base, dir, { recursive: true });
  return dir;
}

describe("compaction into Parquet partitions", () => {
  test("the tables read the same from the partitions; the next compaction has nothing left to do", async () => {
    const dir = copyOfBase("plain");
    const result = await compactRuns(dir);
    assert.ok(result.done);
    assert.equal(result.runs, 9);
    assert.equal(result.files.length, 4, "one file per table for the day");
    assert.deepEqual(await tablesOf(dir), expected);
    assert.deepEqual(await compactRuns(dir), { done: true, runs: 0, events: 0, files: [] });
  });

  test("read-only store tables read the partitions and nothing else on disk", async () => {
    const dir = copyOfBase("locked");
    await compactRuns(dir);
    const outside = join(folders.dir, "outside.txt");
    writeFileSync(outside, "not for SQL");
    const tables = await openStoreTables(dir, { readOnly: true });
    try {
      assert.equal((await tables.query("SELECT count(*)::INTEGER AS n FROM runs"))[0]?.n, 9);
      await assert.rejects(tables.query(`SELECT * FROM read_text('${outside}')`), /Permission|disabled/);
      await assert.rejects(
        tables.connection.run(`COPY runs TO '${join(folders.dir, "leak.csv")}'`),
        /Permission|disabled/,
      );
    } finally {
      tables.close();
    }
  });

  test("a run deleted after its compaction is gone from the tables", async () => {
    const dir = copyOfBase("deleted");
    await compactRuns(dir);
    const gone = String((expected.runs?.[0] as { run_id?: string } | undefined)?.run_id);
    rmSync(runDirOf(dir, gone), { recursive: true });
    const after = await tablesOf(dir);
    assert.equal(after.runs?.length, 8);
    assert.ok(after.events?.every((e) => (e as { run_id: string }).run_id !== gone));
  });

  test("a run still open and a durable run agent.resume may continue stay in their segments", async () => {
    const dir = copyOfBase("unfinished");
    const open = "run_still_open";
    const resumable = "run_resumable";
    writeHandMadeRun(dir, open, [eventLine(open, 1, "agent_start")]);
    writeHandMadeRun(
      dir,
      resumable,
      [eventLine(resumable, 1, "agent_start")],
      runManifest(resumable, { status: "crashed", durable: true, endedAt: 1_700_000_000_500 }),
    );
    const result = await compactRuns(dir);
    assert.equal(result.done && result.runs, 9);
    const tables = await openStoreTables(dir, { readOnly: true });
    try {
      const rows = await tables.query(
        `SELECT run_id, run_id IN (SELECT run_id FROM hx_part_runs) AS compacted FROM runs WHERE run_id IN ('${open}', '${resumable}') ORDER BY run_id`,
      );
      assert.deepEqual(rows, [
        { run_id: resumable, compacted: false },
        { run_id: open, compacted: false },
      ]);
    } finally {
      tables.close();
    }
  });

  test("a linked day folder is not read; a run whose start no day holds stays in its segments", async () => {
    const dir = copyOfBase("linked");
    await compactRuns(dir);
    const outside = join(folders.dir, "outside");
    const { files } = await listPartFiles(dir);
    const day = join(dir, "parts", "events", `date=${files[0]!.date}`);
    cpSync(day, outside, { recursive: true });
    rmSync(join(dir, "parts", "events"), { recursive: true });
    mkdirSync(join(dir, "parts", "events"));
    symlinkSync(outside, day);
    assert.equal((await listPartFiles(dir)).files.filter((f) => f.table === "events").length, 0);
    const odd = "run_odd_start";
    writeHandMadeRun(
      dir,
      odd,
      [eventLine(odd, 1, "agent_start")],
      runManifest(odd, { status: "completed", startedAt: 9e15, endedAt: 9e15 }),
    );
    const result = await compactRuns(dir);
    assert.equal(result.done && result.runs, 0);
  });

  test("a run two compactions hold is read once, from the later one", async () => {
    const dir = copyOfBase("twice");
    await compactRuns(dir);
    const { files } = await listPartFiles(dir);
    const first = files[0]!.stamp;
    // A later compaction's copy of the same runs (as a rewrite of the day would leave it for a moment).
    const later = first.replace(/^\d{8}/, "99991231");
    const tables = await openStoreTables(dir);
    try {
      for (const file of files) {
        const copy = file.path.replace(first, later).replaceAll("'", "''");
        const source = file.path.replaceAll("'", "''");
        const rows = file.table === "runs" ? "SELECT * REPLACE ('rewritten' AS agent)" : "SELECT *";
        await tables.connection.run(`COPY (${rows} FROM read_parquet('${source}')) TO '${copy}' (FORMAT parquet)`);
      }
    } finally {
      tables.close();
    }
    const after = await tablesOf(dir);
    assert.deepEqual(after.events, expected.events);
    assert.deepEqual(
      after.runs?.map((r) => (r as { agent: string }).agent),
      expected.runs?.map(() => "rewritten"),
    );
  });

  for (const step of ["selected", "events", "spans", "artifacts", "committed"] as CompactStep[]) {
    test(`killed -9 after "${step}": every run is read exactly once, and the next compaction finishes`, async () => {
      const dir = copyOfBase(`killed-${step}`);
      const code = await new Promise<number | null>((resolve, reject) => {
        const proc = spawn(process.execPath, ["--import", "tsx", child, dir, step], { stdio: "inherit" });
        proc.on("error", reject);
        proc.on("exit", (exitCode, signal) => resolve(signal === "SIGKILL" ? null : exitCode));
      });
      assert.equal(code, null, "the child was killed at the step");
      assert.deepEqual(await tablesOf(dir), expected, `after a kill at ${step}`);
      const next = await compactRuns(dir);
      assert.ok(next.done);
      assert.equal(next.runs, step === "committed" ? 0 : 9);
      assert.deepEqual(await tablesOf(dir), expected, `after the next compaction`);
      const { files, stray } = await listPartFiles(dir);
      assert.deepEqual(stray, []);
      assert.deepEqual(committedParts(files), files, "nothing uncommitted is left");
    });
  }

  test("two recording processes and compactions on one store: each run exactly once", async () => {
    const dir = join(folders.dir, "shared");
    await record(dir, 2);
    const recorder = new URL("../test-support/catalog-child.ts", import.meta.url).pathname;
    const recording = (runs: number) =>
      new Promise<void>((resolve, reject) => {
        const proc = spawn(process.execPath, ["--import", "tsx", recorder, dir, String(runs)], { stdio: "inherit" });
        proc.on("error", reject);
        proc.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`recorder exited ${code}`))));
      });
    const compacting = (async () => {
      for (let i = 0; i < 4; i++) await compactRuns(dir);
    })();
    await Promise.all([recording(15), recording(15), compacting]);
    await compactRuns(dir);
    const tables = await openStoreTables(dir, { readOnly: true });
    try {
      const [runs] = await tables.query(
        "SELECT count(*)::INTEGER AS n, count(DISTINCT run_id)::INTEGER AS d, sum(events)::INTEGER AS e FROM runs",
      );
      assert.deepEqual(runs, { n: 32, d: 32, e: runs?.e });
      const [events] = await tables.query(
        "SELECT count(*)::INTEGER AS n, count(DISTINCT (run_id, seq))::INTEGER AS d FROM events",
      );
      assert.equal(events?.n, runs?.e, "every recorded event once");
      assert.equal(events?.d, events?.n);
      const [compacted] = await tables.query("SELECT count(*)::INTEGER AS n FROM hx_part_runs");
      assert.equal(compacted?.n, 32);
    } finally {
      tables.close();
    }
    assert.ok(readdirSync(join(dir, "parts", "events")).length >= 1);
  });
});
