// `trace sync`: a store's ended runs to a real S3-compatible server (s3rver on loopback), with the
// SDK's own credential and endpoint chain (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, ...) as users set it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, FlightRecorderExtension, ScriptedProvider, tool } from "harnessx";
import { runTrace, tempDir } from "@harnessx/cli/test-support";
import { startLocalS3, type LocalS3 } from "@harnessx/recorder/test-support";
import { join } from "node:path";

const temp = tempDir("hx-cli-sync-");
const store = join(temp.dir, ".harnessx");
let s3: LocalS3;
const lookup = tool({ name: "lookup", description: "Looks an order up.", execute: () => "shipped" });
const refund = tool({
  name: "refund",
  description: "Refunds.",
  execute: () => {
    throw new Error("refunds are closed");
  },
});

async function record(steps: ConstructorParameters<typeof ScriptedProvider>[0]): Promise<string> {
  const agent = new Agent({
    provider: new ScriptedProvider(steps),
    name: "orders",
    tools: [lookup, refund],
    extensions: [new FlightRecorderExtension({ dir: store })],
  });
  const result = await agent.run("help");
  await agent.close();
  return result.runId;
}

// The dataset cache in the test's folder, not the user's.
const trace = (env: Record<string, string>, ...args: string[]) =>
  runTrace(["--store", store, ...args], {
    cwd: temp.dir,
    env: { HARNESSX_CACHE_DIR: join(temp.dir, "cache"), ...env },
  });

async function rows(env: Record<string, string>, ...args: string[]): Promise<unknown[]> {
  const r = await trace(env, "--json", ...args);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as unknown[];
}

before(async () => {
  s3 = await startLocalS3("fleet-data");
  await record([{ toolCalls: [{ name: "lookup", input: {} }] }, { text: "ok" }]);
  await record([{ toolCalls: [{ name: "refund", input: {} }] }, { text: "sorry" }]);
  await record([
    {
      toolCalls: [
        { name: "lookup", input: {} },
        { name: "refund", input: {} },
      ],
    },
    { text: "partly" },
  ]);
});
after(async () => {
  await s3.close();
  temp.cleanup();
});

describe("trace sync <store> s3://bucket/prefix", () => {
  test("uploads every ended run and prints a summary; a rerun uploads nothing", async () => {
    const first = await trace(s3.env, "sync", store, "s3://fleet-data/prod");
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      /^synced .* to s3:\/\/fleet-data\/prod: \d+ uploaded \(.+\), 0 skipped, 0 failed in .+ \(.+ MB\/s\)\n$/,
    );
    assert.doesNotMatch(first.stderr, /NodeVersionSupportWarning/);
    assert.equal((await s3.keys("prod/runs/")).length, 3);
    const again = await trace(s3.env, "--json", "sync", "s3://fleet-data/prod");
    assert.equal(again.code, 0, again.stderr);
    const summary = JSON.parse(again.stdout) as {
      uploaded: number;
      skipped: number;
      failed: unknown[];
      exportedRuns: number;
    };
    assert.deepEqual([summary.uploaded, summary.failed.length, summary.exportedRuns], [0, 0, 0]);
    assert.ok(summary.skipped > 3);
  });

  test("wrong credentials: one clear line, exit 1, nothing sent", async () => {
    const r = await trace(
      { ...s3.env, AWS_ACCESS_KEY_ID: "nobody", AWS_SECRET_ACCESS_KEY: "wrong" },
      "sync",
      "s3://fleet-data/creds",
    );
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(
      r.stderr,
      /s3:\/\/fleet-data\/creds: the storage at http:\/\/127\.0\.0\.1:\d+ refused the credentials .*AWS_ACCESS_KEY_ID/,
    );
    assert.deepEqual(await s3.keys("creds/"), []);
  });

  test("an unreachable endpoint: one clear line, exit 5", async () => {
    const r = await trace({ ...s3.env, AWS_ENDPOINT_URL: "http://127.0.0.1:9" }, "sync", "s3://fleet-data/x");
    assert.equal(r.code, 5);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /cannot reach the storage at http:\/\/127\.0\.0\.1:9 .*AWS_ENDPOINT_URL/);
  });

  test("hostile input: a target that is not s3://, a missing bucket, a folder that is not a store", async () => {
    const bad = await trace(s3.env, "sync", "https://fleet-data/x");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not an S3 target/);
    const missing = await trace(s3.env, "sync", "s3://no-such-bucket/x");
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /bucket does not exist/);
    const notStore = await trace(s3.env, "sync", temp.dir, "s3://fleet-data/x");
    assert.equal(notStore.code, 4);
  });
});

describe("trace query --dataset s3://... and trace ls --dataset s3://...", () => {
  before(async () => {
    const r = await trace(s3.env, "sync", "s3://fleet-data/query");
    assert.equal(r.code, 0, r.stderr);
  });

  for (const [what, sql] of [
    [
      "failed tool calls by tool",
      "SELECT name, status, count(*) AS calls FROM spans WHERE kind = 'tool' GROUP BY 1, 2 ORDER BY 1, 2",
    ],
    ["runs", "SELECT run_id, status, agent, host, service, tool_calls FROM runs ORDER BY run_id"],
    ["events", "SELECT run_id, seq, kind, tool_name FROM events ORDER BY run_id, seq"],
  ] as const) {
    test(`the same rows as trace query --all: ${what}`, async () => {
      const local = await rows({}, "query", "--all", sql);
      assert.ok(local.length > 0);
      assert.deepEqual(await rows(s3.env, "query", "--dataset", "s3://fleet-data/query", sql), local);
    });
  }

  test("a second query reads the cache: nothing is fetched again", async () => {
    const r = await trace(s3.env, "query", "--dataset", "s3://fleet-data/query", "SELECT count(*) FROM runs");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /0 file\(s\) fetched \(0 B\), \d+ from the cache/);
  });

  test("trace ls --dataset lists every run with its host and service", async () => {
    const listed = (await rows(s3.env, "ls", "--dataset", "s3://fleet-data/query", "--since", "1d")) as Array<{
      run_id: string;
      host: string | null;
    }>;
    assert.equal(listed.length, 3);
    assert.ok(listed.every((r) => typeof r.host === "string" && r.host.length > 0));
  });

  test("a prefix that holds no dataset, and an unreachable endpoint, are one line each", async () => {
    const empty = await trace(s3.env, "query", "--dataset", "s3://fleet-data/nothing-here", "SELECT 1");
    assert.equal(empty.code, 4);
    assert.match(empty.stderr, /is not a dataset: it has no harnessx-dataset.json/);
    const down = await trace(
      { ...s3.env, AWS_ENDPOINT_URL: "http://127.0.0.1:9" },
      "ls",
      "--dataset",
      "s3://fleet-data/query",
    );
    assert.equal(down.code, 5);
    assert.equal(down.stderr.trim().split("\n").length, 1, down.stderr);
  });
});
