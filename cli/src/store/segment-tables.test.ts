import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  artifactRefsOf,
  openSegmentTables,
  RecordingStore,
  spanRows,
  TABLE_COLUMNS,
  TABLE_NAMES,
  type RecordedEvent,
  type RecordingTables,
  type RunManifest,
} from "@harnessx/recorder";
import { recordFailedRun, recordSupportRun, tempDir } from "../test-support/recording.js";

let store: string;
let cleanup: () => void;
let tables: RecordingTables;
let events: RecordedEvent[];
let manifests: Map<string, RunManifest>;

/** Rows as JSON: numbers compared as numbers whatever their SQL type, JSON objects whatever their key order. */
async function rows(sql: string): Promise<unknown[]> {
  const normalize = (_k: string, v: unknown): unknown => {
    if (typeof v !== "string") return v;
    if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
    try {
      return /^[[{"]/.test(v) ? (JSON.parse(v) as unknown) : v;
    } catch {
      return v; // a preview: cut JSON text
    }
  };
  return JSON.parse(JSON.stringify(await tables.query(sql)), normalize) as unknown[];
}

/** A TIMESTAMP_MS as DuckDB writes it: trailing zeros of the milliseconds left out. */
const iso = (ms: number | null): string | null =>
  ms === null
    ? null
    : new Date(Math.round(ms))
        .toISOString()
        .replace("T", " ")
        .replace(/\.?0*Z$/, "");
const textOf = (value: unknown): string | null => (typeof value === "string" ? value : null);

before(async () => {
  const temp = tempDir();
  cleanup = temp.cleanup;
  store = join(temp.dir, ".harnessx");
  await recordSupportRun(store, { inlinePayloadBytes: 300 });
  await recordFailedRun(store);
  const recordings = new RecordingStore(store);
  const runs = await recordings.listRuns();
  tables = await openSegmentTables(
    store,
    runs.map((r) => r.dir),
  );
  events = await recordings.readAllEvents();
  manifests = new Map(await Promise.all(runs.map(async (r) => [r.runId, await recordings.manifest(r.runId)] as const)));
});
after(() => {
  tables.close();
  cleanup();
});

// The tables DuckDB builds from segment files, against what the JavaScript readers make of the same runs.
describe("tables read from segment files hold what the JavaScript readers read", () => {
  test("every table has the declared columns, in order, with their types", async () => {
    for (const table of TABLE_NAMES) {
      const described = await tables.query(`DESCRIBE ${table}`);
      assert.deepEqual(
        described.map((c) => [c.column_name, c.column_type]),
        TABLE_COLUMNS[table].map((c) => [c.name, c.type]),
        table,
      );
    }
  });

  test("events: one row per event read, each field in its column", async () => {
    const expected = events.map((e) => ({
      run_id: e.runId,
      seq: e.seq,
      ts: iso(e.ts),
      ts_ms: e.ts,
      kind: e.kind,
      span_id: e.spanId,
      parent_span_id: e.parentSpanId,
      tool_name: textOf(e.attrs.toolName),
      tool_call_id: textOf(e.attrs.toolCallId),
      attrs: e.attrs,
      payload: e.payload ?? null,
      payload_sha256: e.payloadRef?.sha256 ?? null,
      payload_bytes: e.payloadRef?.bytes ?? null,
      payload_preview: e.payloadRef?.preview ?? null,
      redacted: e.redacted ?? null,
    }));
    const actual = await rows("SELECT * FROM events ORDER BY run_id, seq");
    assert.ok(
      expected.some((e) => e.payload_sha256 !== null),
      "some payload is stored aside",
    );
    const sorted = [...expected].sort((a, b) => (a.run_id === b.run_id ? a.seq - b.seq : a.run_id < b.run_id ? -1 : 1));
    assert.deepEqual(JSON.parse(JSON.stringify(actual)), JSON.parse(JSON.stringify(sorted, (_k, v) => v)));
  });

  test("spans: the rows spanRows maps from the events in JavaScript", async () => {
    const expected = spanRows(events, manifests).map((s) => ({
      run_id: s.runId,
      trace_id: s.traceId,
      span_id: s.spanId,
      parent_span_id: s.parentSpanId,
      kind: s.kind,
      name: s.name,
      start_ts: iso(s.startTs),
      end_ts: iso(s.endTs),
      duration_ms: s.endTs === null ? null : s.endTs - s.startTs,
      status: s.status,
      input_tokens: s.inputTokens,
      output_tokens: s.outputTokens,
      cost_usd: s.costUsd,
      events: s.events,
      attrs: s.attrs,
    }));
    const byId = (a: { run_id: string; span_id: string }, b: { run_id: string; span_id: string }) =>
      `${a.run_id}/${a.span_id}` < `${b.run_id}/${b.span_id}` ? -1 : 1;
    const actual = (await rows("SELECT * FROM spans")) as { run_id: string; span_id: string }[];
    assert.ok(expected.length >= 6, "both runs have spans");
    assert.deepEqual(actual.sort(byId), JSON.parse(JSON.stringify(expected.sort(byId))));
  });

  test("artifacts: every reference the events hold, with the stored size of what is present", async () => {
    const expected: [string, string, number, string][] = [];
    for (const e of events) {
      if (e.payloadRef) expected.push([e.payloadRef.sha256, e.runId, e.seq, "payload"]);
      for (const ref of artifactRefsOf(e.attrs)) expected.push([ref.sha256, e.runId, e.seq, "extension"]);
    }
    const actual = (await rows("SELECT sha256, run_id, seq, kind, present FROM artifacts ORDER BY run_id, seq")) as {
      sha256: string;
      run_id: string;
      seq: number;
      kind: string;
      present: boolean;
    }[];
    assert.ok(expected.length > 0, "the runs reference artifacts");
    assert.deepEqual(actual.map((a) => [a.sha256, a.run_id, a.seq, a.kind]).sort(), expected.map((e) => [...e]).sort());
    assert.ok(actual.every((a) => a.present));
  });

  test("runs: one row per run.json", async () => {
    const actual = (await rows("SELECT run_id, status, events, started_at FROM runs ORDER BY run_id")) as unknown[];
    const expected = [...manifests.values()]
      .map((m) => ({ run_id: m.runId, status: m.status, events: m.summary?.events, started_at: iso(m.startedAt) }))
      .sort((a, b) => (a.run_id < b.run_id ? -1 : 1));
    assert.deepEqual(actual, expected);
  });
});
