// Runs whose last segment is still plain NDJSON: a crashed run before `trace recover`, and a run
// that is still recording. DuckDB reads plain segments as uncompressed files (regression: the
// reader once asked it for compression 'none', which DuckDB accepts for CSV only).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir, runTrace } from "@harnessx/cli/test-support";
import { startRecording, type RecordingProcess } from "../support/recording-process.js";

let work: string;
let cleanup: () => void;

before(() => {
  const temp = tempDir();
  cleanup = temp.cleanup;
  work = temp.dir;
});
after(() => cleanup());

async function readsUnsealedRun(store: string, runId: string, minToolCalls: number): Promise<void> {
  const trace = (...args: string[]) => runTrace(["--store", store, "--json", ...args], { cwd: work });
  const summary = await trace("summary", runId);
  assert.equal(summary.code, 0, summary.stderr);
  const s = JSON.parse(summary.stdout) as {
    status: string;
    events: number;
    kinds: Array<{ kind: string; count: number }>;
  };
  assert.equal(s.status, "running");
  assert.ok((s.kinds.find((k) => k.kind === "tool_call_start")?.count ?? 0) >= minToolCalls, summary.stdout);

  const view = await trace("view", runId, "tools");
  assert.equal(view.code, 0, view.stderr);
  assert.ok(Array.isArray(JSON.parse(view.stdout)));

  const query = await trace("query", runId, "SELECT count(*) AS n, min(seq) AS first FROM events");
  assert.equal(query.code, 0, query.stderr);
  const [row] = JSON.parse(query.stdout) as Array<{ n: number; first: number }>;
  assert.ok(row.n >= 3, `events read: ${row.n}`);
  assert.equal(row.first, 1);

  const spans = await trace("query", runId, "SELECT count(*) AS open FROM spans WHERE status = 'open'");
  assert.equal(spans.code, 0, spans.stderr);
  assert.ok((JSON.parse(spans.stdout) as Array<{ open: number }>)[0].open >= 1, "the run span is still open");
}

describe("summary, view and query read runs that are not sealed", () => {
  test("a run killed mid-way (before trace recover)", async () => {
    const store = join(work, "crashed");
    const recording = await startRecording(work, store, "hang");
    await recording.kill();
    await readsUnsealedRun(store, recording.runId, 1);
  });

  test("a run still being recorded", async () => {
    const store = join(work, "live");
    let recording: RecordingProcess | undefined;
    try {
      recording = await startRecording(work, store, "busy", 5);
      await readsUnsealedRun(store, recording.runId, 5);
    } finally {
      await recording?.kill();
    }
  });
});
