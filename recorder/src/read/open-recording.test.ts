import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import {
  BundleError,
  exportIncident,
  openRecording,
  RecordingClosedError,
  RecordingSourceError,
  RunInvalidError,
  RunNotFoundError,
  type Recording,
  type RecordingSourceProblem,
  type RecordingTables,
} from "../index.js";
import { recordRunWithArtifact } from "../test-support/agents.js";
import { eventLine, runManifest, writeHandMadeRun } from "../test-support/hand-made-run.js";
import { tempDir } from "../../../test/support/system.js";

let store: string;
let cleanup: () => void;
let runId: string;
let runDir: string;
let bundlePath: string;
let spilled: string;

before(async () => {
  const temp = tempDir();
  cleanup = temp.cleanup;
  store = temp.dir;
  const recorded = await recordRunWithArtifact(store);
  [runId, spilled] = [recorded.runId, recorded.sha256];
  runDir = join(store, "runs", runId);
  bundlePath = (await exportIncident({ dir: store, runId, reason: "read model test", out: join(store, "run.tar") }))
    .path;
});
after(() => cleanup());

/** Every row of a table, as JSON, in a stable order. */
async function rows(tables: RecordingTables, table: string, order: string): Promise<unknown> {
  return (await tables.connection.runAndReadAll(`SELECT * FROM ${table} ORDER BY ${order}`)).getRowObjectsJson();
}

/** What a reader gets from a recording, gathered through every part of the read model. */
async function everything(recording: Recording): Promise<Record<string, unknown>> {
  const events = await recording.readEvents();
  const db = await recording.database({ readOnly: true });
  try {
    const artifacts = (await recording.artifacts.list()).sort();
    return {
      run: recording.run,
      summary: recording.summary,
      events,
      withPayloads: await recording.readEvents({ payloads: true, fullRequests: true }),
      payloads: await Promise.all(events.map((e) => recording.payloadOf(e))),
      spans: await recording.spans(),
      traceEvents: await recording.traceEvents(),
      artifacts,
      artifactBytes: await Promise.all(
        artifacts.map(async (id) => (await recording.artifacts.bytes(id)).toString("base64")),
      ),
      integrity: await recording.integrity(),
      tables: {
        events: await rows(db, "events", "seq"),
        spans: await rows(db, "spans", "span_id"),
        artifacts: await rows(db, "artifacts", "seq, sha256"),
      },
    };
  } finally {
    db.close();
  }
}

describe("openRecording reads a run and its bundle alike", () => {
  test("a run directory, a run id, a unique prefix and the bundle give the same answers", async () => {
    await using fromDir = await openRecording(runDir);
    await using fromId = await openRecording({ storeDir: store, runId });
    await using fromPrefix = await openRecording(runId.slice(0, -3), { storeDir: store });
    await using fromRelative = await openRecording(relative(process.cwd(), runDir));
    await using fromBundle = await openRecording(bundlePath);
    assert.deepEqual(fromDir.source, { kind: "run", storeDir: store, runDir, runId });
    for (const other of [fromId, fromPrefix, fromRelative]) assert.deepEqual(other.source, fromDir.source);
    assert.deepEqual(fromBundle.source, { kind: "bundle", path: bundlePath });
    assert.equal(fromBundle.bundle?.trigger.reason, "read model test");
    assert.equal(fromDir.bundle, undefined);

    const run = await everything(fromDir);
    assert.deepEqual(await everything(fromId), run);
    assert.deepEqual(await everything(fromBundle), run);
  });

  test("what the run holds: validated metadata, events in order, payloads put back, spans named as backends show them", async () => {
    await using recording = await openRecording(bundlePath);
    assert.equal(recording.run.format, "harnessx.run");
    assert.match(recording.run.traceId ?? "", /^[0-9a-f]{32}$/);
    const events = await recording.readEvents();
    assert.deepEqual(
      events.map((e) => e.seq),
      events.map((_, i) => i + 1),
    );
    assert.equal(recording.summary.events, events.length);
    const aside = events.filter((e) => e.payloadRef);
    assert.ok(aside.length > 0, "the long tool input went to an artifact");
    const inline = await recording.readEvents({ payloads: true });
    for (const event of aside) {
      const back = inline.find((e) => e.seq === event.seq)!;
      assert.equal(back.payloadRef, undefined);
      assert.deepEqual(back.payload, await recording.payloadOf(event));
    }
    const spans = await recording.spans();
    assert.deepEqual(spans.map((s) => s.kind).sort(), ["model", "model", "run", "tool", "tool"]);
    assert.ok(spans.every((s) => s.traceId === recording.run.traceId));
    assert.ok(spans.some((s) => s.name === "execute_tool big"));
    assert.ok((await recording.artifacts.list()).includes(spilled));
    const streamed = [];
    for await (const event of recording.eachTraceEvent()) streamed.push(event);
    const { events: traced } = await recording.traceEvents();
    assert.ok(traced.some((e) => e.kind === "llm_request"));
    assert.deepEqual(streamed, traced, "one at a time, the same hook events as all together");
  });

  test("the DuckDB tables are the documented ones, and read-only when asked", async () => {
    await using recording = await openRecording({ bundle: bundlePath });
    const db = await recording.database({ readOnly: true });
    const count = async (sql: string) => Number((await db.connection.runAndReadAll(sql)).getRowObjectsJson()[0]!.n);
    assert.equal(await count("SELECT count(*) AS n FROM events"), recording.summary.events);
    assert.equal(await count("SELECT count(*) AS n FROM spans"), 5);
    assert.equal(await count(`SELECT count(*) AS n FROM artifacts WHERE sha256 = '${spilled}' AND present`), 1);
    assert.equal(await count("SELECT count(*) AS n FROM lines"), recording.summary.events);
    await assert.rejects(db.connection.run(`COPY events TO '${join(store, "out.csv")}'`), /Permission Error|disabled/);
    await recording.close();
    await assert.rejects(
      async () => db.connection.runAndReadAll("SELECT 1"),
      "close() closes the databases still open",
    );
  });

  test("a closed recording refuses to read", async () => {
    const recording = await openRecording(runDir);
    await recording.close();
    await assert.rejects(recording.readEvents(), RecordingClosedError);
    await assert.rejects(recording.artifacts.bytes(spilled), RecordingClosedError);
  });
});

describe("an unsealed run (its recorder killed) reads as far as it was written", () => {
  test("status running, totals counted from the events, torn bytes and bad lines reported, the open run span listed", async () => {
    const temp = tempDir();
    try {
      const id = "run_crashed";
      const lines = [
        eventLine(id, 1, "agent_start", { model: "m" }),
        eventLine(id, 2, "llm_request", { model: "m" }),
        "not an event\n",
        eventLine(id, 3, "custom", { name: "note" }),
      ];
      const dir = writeHandMadeRun(
        temp.dir,
        id,
        [lines.join(""), '{"v":1,"seq":4,"kind":"tor'],
        runManifest(id, { traceId: "0af7651916cd43dd8448eb211c80319c" }),
      );
      await using recording = await openRecording(dir);
      assert.equal(recording.run.status, "running");
      assert.deepEqual(recording.summary.byKind, { agent_start: 1, llm_request: 1, custom: 1 });
      assert.deepEqual(
        (await recording.readEvents()).map((e) => e.seq),
        [1, 2, 3],
      );
      const integrity = await recording.integrity();
      assert.ok(integrity.tornBytes > 0, "the torn last line is cut and counted");
      assert.equal(integrity.badLines, 1);
      assert.match(integrity.firstBadLine?.segment ?? "", /000001\.ndjson$/);
      assert.equal(integrity.firstBadLine?.line, 3);
      const spans = await recording.spans();
      assert.equal(spans.find((s) => s.kind === "run")?.status, "open");
      const db = await recording.database();
      try {
        assert.equal(
          Number((await db.connection.runAndReadAll("SELECT count(*) AS n FROM events")).getRowObjectsJson()[0]!.n),
          3,
        );
      } finally {
        db.close();
      }
      // The recorder writes more: a new read sees it.
      appendFileSync(
        join(dir, "segments", "000002.ndjson"),
        `\n${eventLine(id, 4, "agent_end", { status: "completed" })}`,
      );
      assert.equal((await recording.readEvents()).length, 4);
    } finally {
      temp.cleanup();
    }
  });
});

describe("a source that names no readable recording is a typed error", () => {
  const problem = (expected: RecordingSourceProblem, message?: RegExp) => (error: unknown) => {
    assert.ok(error instanceof RecordingSourceError, String(error));
    assert.equal(error.problem, expected);
    assert.equal(error.code, `recording_${expected}`);
    if (message) assert.match(error.message, message);
    return true;
  };

  test("nothing there: a missing path, a missing store, no run with that id, an ambiguous prefix", async () => {
    await assert.rejects(openRecording(""), problem("empty"));
    await assert.rejects(openRecording(join(store, "nope.tar")), problem("missing_path", /no such file or directory/));
    await assert.rejects(openRecording("run_x", { storeDir: join(store, "absent") }), problem("no_store"));
    await assert.rejects(
      openRecording({ storeDir: store, runId: "run_nope" }),
      problem("no_match", /no run matches "run_nope"/),
    );
    const temp = tempDir();
    try {
      for (const id of ["run_a1", "run_a2"]) writeHandMadeRun(temp.dir, id, [eventLine(id, 1, "agent_start")]);
      await assert.rejects(
        openRecording("run_a", { storeDir: temp.dir }),
        (error: unknown) =>
          problem("ambiguous", /matches 2 runs \(run_a1, run_a2\)/)(error) &&
          (error as RecordingSourceError).matches.length === 2,
      );
      assert.equal((await openRecording("run_a2", { storeDir: temp.dir })).run.runId, "run_a2");
    } finally {
      temp.cleanup();
    }
  });

  test("something that is not a recording: a plain directory, a store, a store without runs/", async () => {
    const temp = tempDir();
    try {
      mkdirSync(join(temp.dir, "plain"));
      await assert.rejects(openRecording(join(temp.dir, "plain")), problem("not_a_run"));
      await assert.rejects(openRecording(store), problem("store_not_run"));
      await assert.rejects(openRecording("run_x", { storeDir: join(temp.dir, "plain") }), problem("not_a_store"));
    } finally {
      temp.cleanup();
    }
  });

  test("a run.json that is missing, unusable or of an unknown version; a file that is not a bundle", async () => {
    const temp = tempDir();
    try {
      await assert.rejects(openRecording({ runDir: join(temp.dir, "runs", "run_gone") }), RunNotFoundError);
      const future = writeHandMadeRun(temp.dir, "run_v2", [eventLine("run_v2", 1, "agent_start")]);
      writeFileSync(join(future, "run.json"), JSON.stringify({ ...runManifest("run_v2"), v: 2 }));
      await assert.rejects(
        openRecording(future),
        (error: unknown) =>
          error instanceof RunInvalidError &&
          /v must be a run\.json version this reader knows \(1\)/.test(error.message),
      );
      writeFileSync(join(future, "run.json"), JSON.stringify({ ...runManifest("run_v2"), format: "other" }));
      await assert.rejects(openRecording(future), RunInvalidError);
      writeFileSync(join(temp.dir, "notes.tar"), "not a tar at all");
      await assert.rejects(openRecording(join(temp.dir, "notes.tar")), BundleError);
    } finally {
      temp.cleanup();
    }
  });
});
