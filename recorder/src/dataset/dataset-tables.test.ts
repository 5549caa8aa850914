import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { ZstdCodec, type ZstdStreaming } from "zstd-codec";
import { Agent, ScriptedProvider } from "@harnessx/core";
import {
  DatasetError,
  exportDataset,
  FlightRecorderExtension,
  openDatasetTables,
  openSegmentTables,
  runFolders,
  type DatasetExport,
  type RecordingTables,
} from "../index.js";
import { echoScript, echoTool, recordRunWithArtifact } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

const { dir, cleanup } = tempDir();
const store = join(dir, "store");
const dataset = join(dir, "dataset");
let exported: DatasetExport;
let fromStore: RecordingTables;
let fromDataset: RecordingTables;

async function record(
  name: string,
  steps: Parameters<typeof echoScript>[0] | ConstructorParameters<typeof ScriptedProvider>[0],
  options: ConstructorParameters<typeof FlightRecorderExtension>[0] = { dir: store },
): Promise<string> {
  const agent = new Agent({
    provider: new ScriptedProvider(typeof steps === "number" ? echoScript(steps) : steps),
    tools: [echoTool],
    name,
    extensions: [new FlightRecorderExtension(options)],
  });
  const result = await agent.run("go");
  await agent.close();
  return result.runId;
}

let failed: string;
let serviced: string;
let reduced: string;

before(async () => {
  await record("echoer", 2);
  failed = await record("failing", [
    { toolCalls: [{ id: "e", name: "echo", input: { text: "x" } }] },
    { error: { status: 400, message: "bad request" } },
  ]);
  await recordRunWithArtifact(store);
  process.env.OTEL_SERVICE_NAME = "checkout-service";
  try {
    serviced = await record("echoer", 1);
  } finally {
    delete process.env.OTEL_SERVICE_NAME;
  }
  reduced = await record("quick", 0, { dir: store, retain: { slowerThanMs: 3_600_000 } });
  exported = await exportDataset({ storeDir: store, out: dataset });
  fromStore = await openSegmentTables(
    store,
    (await runFolders(store)).map((r) => r.dir),
    { readOnly: true },
  );
  fromDataset = await openDatasetTables(dataset, { readOnly: true });
});
after(() => {
  fromStore?.close();
  fromDataset?.close();
  cleanup();
});

const rows = async (tables: RecordingTables, sql: string) =>
  (await tables.connection.runAndReadAll(sql)).getRowObjectsJson();

describe("the dataset answers the SQL the store answers", () => {
  const same = [
    ["runs", "SELECT * FROM runs ORDER BY run_id"],
    ["events", "SELECT * FROM events ORDER BY run_id, seq"],
    ["spans", "SELECT * FROM spans ORDER BY run_id, start_ts, span_id"],
    [
      "failed runs by tool",
      "SELECT e.tool_name, count(DISTINCT e.run_id) AS runs FROM events e JOIN runs r USING (run_id) WHERE r.status = 'failed' AND e.kind = 'tool_call_end' GROUP BY 1 ORDER BY 1",
    ],
    [
      "tokens by agent and host",
      "SELECT agent, host, service, sum(input_tokens) AS input FROM runs GROUP BY ALL ORDER BY ALL",
    ],
  ] as const;
  for (const [name, sql] of same) {
    test(name, async () => {
      const expected = await rows(fromStore, sql);
      assert.ok(expected.length > 0, "the query has rows to compare");
      assert.deepEqual(await rows(fromDataset, sql), expected);
    });
  }

  test("artifacts: the store's columns, plus the object holding each artifact's bytes", async () => {
    const order = " ORDER BY run_id, seq, sha256, kind";
    assert.deepEqual(
      await rows(fromDataset, `SELECT * EXCLUDE (object_sha256) FROM artifacts${order}`),
      await rows(fromStore, `SELECT * FROM artifacts${order}`),
    );
    const objects = await rows(fromDataset, "SELECT DISTINCT object_sha256 FROM artifacts WHERE present");
    assert.ok(objects.length > 0 && objects.every((o) => typeof o.object_sha256 === "string"));
  });

  test("the views have the store tables' column types", async () => {
    for (const table of ["runs", "events", "spans"]) {
      const describe = `SELECT column_name, column_type FROM (DESCRIBE ${table})`;
      assert.deepEqual(await rows(fromDataset, describe), await rows(fromStore, describe), table);
    }
  });

  test("a run reduced by tail retention has its runs row only", async () => {
    assert.deepEqual(
      exported.runs.find((r) => r.runId === reduced)?.files.map((f) => f.table),
      ["runs"],
    );
    assert.deepEqual(await rows(fromDataset, `SELECT detail FROM runs WHERE run_id = '${reduced}'`), [
      { detail: "summary" },
    ]);
    assert.deepEqual(await rows(fromDataset, `SELECT count(*)::INT AS n FROM events WHERE run_id = '${reduced}'`), [
      { n: 0 },
    ]);
  });

  test("host is the machine's name; service is OTEL_SERVICE_NAME, else the agent's name", async () => {
    const runs = await rows(
      fromDataset,
      `SELECT run_id, agent, host, service FROM runs WHERE run_id IN ('${failed}', '${serviced}') ORDER BY run_id`,
    );
    assert.deepEqual(
      runs.map((r) => [r.run_id, r.host, r.service]).sort(),
      [
        [failed, hostname(), "failing"],
        [serviced, hostname(), "checkout-service"],
      ].sort(),
    );
  });

  test("since: partitions before its date are not read", async () => {
    const day = Date.parse(`${exported.runs[0]!.date}T00:00:00Z`);
    const later = await openDatasetTables(dataset, { since: day + 86_400_000 });
    try {
      assert.deepEqual(await rows(later, "SELECT count(*)::INT AS n FROM runs"), [{ n: 0 }]);
    } finally {
      later.close();
    }
  });
});

describe("the files are standard Parquet", () => {
  test("hyparquet, an independent reader, reads the events DuckDB wrote", async () => {
    const codec = await new Promise<ZstdStreaming>((resolve) => ZstdCodec.run((zstd) => resolve(new zstd.Streaming())));
    const ZSTD = (input: Uint8Array, outputLength: number) => codec.decompressChunks([input], outputLength)!;
    for (const run of exported.runs.filter((r) => r.detail === "full")) {
      const file = run.files.find((f) => f.table === "events")!;
      const read = await parquetReadObjects({ file: await asyncBufferFromFile(file.path), compressors: { ZSTD } });
      const expected = await rows(
        fromStore,
        `SELECT run_id, seq, kind, tool_name FROM events WHERE run_id = '${run.runId}' ORDER BY seq`,
      );
      assert.deepEqual(
        read.map((r) => ({ run_id: r.run_id, seq: String(r.seq), kind: r.kind, tool_name: r.tool_name ?? null })),
        expected,
      );
    }
  });
});

describe("openDatasetTables refuses a folder that is not a dataset", () => {
  test("no harnessx-dataset.json, an unknown version, a file", async () => {
    const problem = (problem: string) => (error: unknown) => error instanceof DatasetError && error.problem === problem;
    await assert.rejects(openDatasetTables(store), problem("not_a_dataset"));
    await assert.rejects(openDatasetTables(join(dir, "missing")), problem("missing"));
    mkdirSync(join(dir, "v9"));
    writeFileSync(join(dir, "v9", "harnessx-dataset.json"), JSON.stringify({ format: "harnessx-dataset", version: 9 }));
    await assert.rejects(openDatasetTables(join(dir, "v9")), problem("unsupported_version"));
    writeFileSync(join(dir, "v9", "x"), "");
    await assert.rejects(openDatasetTables(join(dir, "v9", "x")), problem("not_a_folder"));
  });
});
