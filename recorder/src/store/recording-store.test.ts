import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider } from "@harnessx/core";
import {
  FlightRecorderExtension,
  RecordingStore,
  RunInvalidError,
  RunNotFoundError,
  openBundle,
  openRecording,
} from "../index.js";
import { echoScript, echoTool } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

async function recordTwoRuns(dir: string): Promise<{ ok: string; failed: string }> {
  const recorder = new FlightRecorderExtension({ dir, inlinePayloadBytes: 1024 });
  const steps = [
    ...echoScript(3),
    { text: "x".repeat(3000), usage: { inputTokens: 7, outputTokens: 1 } },
    { error: { status: 401, message: "bad key" } },
  ];
  steps.splice(3, 1); // the first run ends with the long text reply
  const agent = new Agent({
    provider: new ScriptedProvider(steps),
    tools: [echoTool],
    extensions: [recorder],
    name: "store-agent",
    retry: { maxAttempts: 1 },
  });
  const ok = await agent.run("first");
  const failed = await agent.run("second");
  await agent.close();
  return { ok: ok.runId, failed: failed.runId };
}

describe("RecordingStore lists runs with status, times, counts, tokens and errors", () => {
  test("listRuns and getRun", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const ids = await recordTwoRuns(dir);
      const store = new RecordingStore(dir);
      const runs = await store.listRuns();
      assert.equal(runs.length, 2);
      const ok = await store.getRun(ids.ok);
      const failed = await store.getRun(ids.failed);
      assert.equal(ok.status, "completed");
      assert.equal(ok.agent, "store-agent");
      assert.equal(ok.toolCalls, 3);
      assert.equal(ok.modelCalls, 4);
      assert.equal(ok.inputTokens, 37);
      assert.ok(ok.durationMs !== null && ok.durationMs >= 0, "duration known");
      assert.equal(failed.status, "failed");
      assert.ok(failed.errors >= 1, "errors counted");
      assert.match(failed.error!.message, /bad key/);
      assert.equal(ok.stale, false);
      await assert.rejects(store.getRun("run_nope"), RunNotFoundError);
      const events = await store.readEvents(ids.ok, { fullRequests: true });
      const lastRequest = events.filter((e) => e.kind === "llm_request").pop()!;
      assert.equal(
        (lastRequest.payload as { request: { messages: unknown[] } }).request.messages.length,
        7,
        "whole request rebuilt",
      );
      const all = await store.readAllEvents();
      assert.equal(all.length, ok.events + failed.events);
    } finally {
      cleanup();
    }
  });
});

describe("runs open as DuckDB tables for SQL", () => {
  test("events, spans and artifacts over all runs, one run, and a bundle", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const ids = await recordTwoRuns(dir);
      const store = new RecordingStore(dir);
      const db = await store.openDatabase();
      try {
        const byKind = await db.query(
          "SELECT kind, count(*)::INTEGER AS n FROM events WHERE run_id = $1 GROUP BY kind ORDER BY kind",
          [ids.ok],
        );
        assert.deepEqual(
          byKind.find((r) => r.kind === "tool_call_end"),
          { kind: "tool_call_end", n: 3 },
        );
        const tools = await db.query(
          "SELECT name, status, duration_ms >= 0 AS timed FROM spans WHERE kind = 'tool' AND run_id = $1",
          [ids.ok],
        );
        assert.equal(tools.length, 3);
        assert.ok(
          tools.every((t) => t.name === "execute_tool echo" && t.status === "ok" && t.timed === true),
          JSON.stringify(tools),
        );
        const runs = await db.query("SELECT run_id, status FROM spans WHERE kind = 'run' ORDER BY start_ts");
        assert.deepEqual(
          runs.map((r) => r.status),
          ["ok", "error"],
        );
        const models = await db.query(
          "SELECT count(*)::INTEGER AS n, sum(input_tokens)::INTEGER AS tokens FROM spans WHERE kind = 'model' AND run_id = $1",
          [ids.ok],
        );
        assert.deepEqual(models[0], { n: 4, tokens: 37 });
        const nested = await db.query(
          "SELECT count(*)::INTEGER AS n FROM spans c JOIN spans p ON c.parent_span_id = p.span_id WHERE p.kind = 'run'",
        );
        assert.equal(nested[0].n, 4 + 3 + 1, "model and tool spans nest under their run span");
        const artifacts = await db.query("SELECT sha256, present, bytes > stored_bytes AS compressed FROM artifacts");
        assert.ok(
          artifacts.length >= 1 && artifacts.every((a) => a.present === true && a.compressed === true),
          JSON.stringify(artifacts),
        );
        const json = await db.query(
          "SELECT attrs->>'toolName' AS tool FROM events WHERE kind = 'tool_call_start' LIMIT 1",
        );
        assert.equal(json[0].tool, "echo");
      } finally {
        db.close();
      }
      const one = await store.openDatabase({ runIds: [ids.failed] });
      try {
        const runIds = await one.query("SELECT DISTINCT run_id FROM events");
        assert.deepEqual(runIds, [{ run_id: ids.failed }]);
      } finally {
        one.close();
      }
      const bundle = await openBundle((await store.exportIncident({ runId: ids.ok })).path);
      await using recording = await openRecording({ bundle });
      const fromBundle = await recording.database();
      try {
        const n = (
          await fromBundle.connection.runAndReadAll("SELECT count(*)::INTEGER AS n FROM events")
        ).getRowObjectsJson();
        assert.equal(n[0].n, bundle.events.length);
      } finally {
        fromBundle.close();
      }
    } finally {
      cleanup();
    }
  });
});

describe("folders under runs/ that are not readable runs", () => {
  test("listRuns leaves them out; listRunFolders names each with its problem; reading one is a typed error", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { ok } = await recordTwoRuns(dir);
      mkdirSync(join(dir, "runs", "run_half"), { recursive: true });
      writeFileSync(join(dir, "runs", "run_half", "run.json"), '{"runId": "run_half", "stat');
      const store = new RecordingStore(dir);
      assert.equal((await store.listRuns()).length, 2);
      const { runs, invalid } = await store.listRunFolders();
      assert.ok(runs.some((r) => r.runId === ok));
      assert.deepEqual(
        invalid.map((f) => f.name),
        ["run_half"],
      );
      assert.match(invalid[0].problem, /run_half\/run\.json is not a valid run manifest: not valid JSON/);
      await assert.rejects(store.getRun("run_half"), RunInvalidError);
      await assert.rejects(store.readEvents("run_half"), RunInvalidError);
    } finally {
      cleanup();
    }
  });
});
