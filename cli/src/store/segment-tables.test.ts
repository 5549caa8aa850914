import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openSegmentTables, RecordingStore, type RecordingDatabase, type RecordingTables } from "@harnessx/recorder";
import { recordFailedRun, recordSupportRun, tempDir } from "../test-support/recording.js";

let store: string;
let cleanup: () => void;
let ours: RecordingTables;
let theirs: RecordingDatabase;

async function rows(db: RecordingTables, sql: string): Promise<unknown[]> {
  const reader = await db.connection.runAndReadAll(sql);
  // Numbers compared as numbers whatever their SQL type (BIGINT vs DOUBLE durations), JSON objects whatever their key order.
  const normalize = (_k: string, v: unknown): unknown => {
    if (typeof v !== "string") return v;
    if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
    try {
      return v.startsWith("{") ? (JSON.parse(v) as unknown) : v;
    } catch {
      return v; // a preview: cut JSON text
    }
  };
  return JSON.parse(JSON.stringify(reader.getRowObjectsJson()), normalize) as unknown[];
}

before(async () => {
  const temp = tempDir();
  cleanup = temp.cleanup;
  store = join(temp.dir, ".harnessx");
  await recordSupportRun(store, { inlinePayloadBytes: 300 });
  await recordFailedRun(store);
  const recordings = new RecordingStore(store);
  const runs = await recordings.listRuns();
  ours = await openSegmentTables(
    store,
    runs.map((r) => r.dir),
  );
  theirs = await recordings.openDatabase();
});
after(() => {
  ours.close();
  theirs.close();
  cleanup();
});

describe("tables read from segment files equal the recorder's RecordingDatabase", () => {
  for (const [table, order] of [
    ["events", "run_id, seq"],
    ["spans", "run_id, span_id"],
    ["artifacts", "run_id, seq"],
  ] as const) {
    test(`${table}: same columns, same rows`, async () => {
      const a = await ours.connection.runAndReadAll(`SELECT * FROM ${table} LIMIT 0`);
      const b = await theirs.connection.runAndReadAll(`SELECT * FROM ${table} LIMIT 0`);
      assert.deepEqual(a.columnNames(), b.columnNames());
      const mine = await rows(ours, `SELECT * FROM ${table} ORDER BY ${order}`);
      const recorder = await rows(theirs, `SELECT * FROM ${table} ORDER BY ${order}`);
      assert.ok(recorder.length > 0, `${table} has rows`);
      assert.deepEqual(mine, recorder);
    });
  }
});
