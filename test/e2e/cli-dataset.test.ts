// `trace export --format parquet` writes a dataset (docs/datasets.md); `trace query --dataset`
// answers the SQL `trace query --all` answers on the store, row for row; `trace ls --dataset`
// lists its runs with their host and service; what cannot be used is refused with the CLI's exit codes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { Agent, FlightRecorderExtension, ScriptedProvider, tool } from "harnessx";
import { cliWorkspace } from "@harnessx/cli/test-support";
import { eventLine, writeHandMadeRun } from "@harnessx/recorder/test-support";

const cli = cliWorkspace("hx-dataset-");
const lookup = tool({ name: "lookup", description: "Looks an order up.", execute: () => "order 42: shipped" });
const refund = tool({
  name: "refund",
  description: "Refunds an order.",
  execute: () => {
    throw new Error("refunds are closed");
  },
});

async function record(name: string, steps: ConstructorParameters<typeof ScriptedProvider>[0]): Promise<string> {
  const agent = new Agent({
    provider: new ScriptedProvider(steps, { model: "gpt-4o" }),
    name,
    tools: [lookup, refund],
    extensions: [new FlightRecorderExtension({ dir: cli.store })],
  });
  const result = await agent.run("help with order 42");
  await agent.close();
  return result.runId;
}

const dataset = () => join(cli.work, "fleet");
async function json<T>(...args: string[]): Promise<T> {
  const r = await cli.trace("--json", ...args);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}
type Export = {
  runs: Array<{ runId: string; written: boolean; files: Array<{ key: string }> }>;
  skipped: Array<{ runId: string; reason: string }>;
};

let runIds: string[];
before(async () => {
  runIds = [
    await record("orders", [
      { toolCalls: [{ name: "lookup", input: {} }], usage: { inputTokens: 100, outputTokens: 10 } },
      { text: "shipped", usage: { inputTokens: 120, outputTokens: 5 } },
    ]),
    await record("refunds", [
      { toolCalls: [{ name: "refund", input: {} }] },
      { error: { status: 400, message: "bad request" } },
    ]),
    await record("refunds", [
      {
        toolCalls: [
          { name: "lookup", input: {} },
          { name: "refund", input: {} },
        ],
      },
      { error: { status: 400, message: "bad request" } },
    ]),
  ];
});
after(() => cli.cleanup());

describe("trace export --format parquet", () => {
  test("--all writes every ended run; again, nothing new", async () => {
    const first = await json<Export>("export", "--format", "parquet", "--all", "--out", dataset());
    assert.deepEqual(first.runs.map((r) => r.runId).sort(), [...runIds].sort());
    assert.ok(first.runs.every((r) => r.written && r.files.length === 4));
    assert.ok(existsSync(join(dataset(), "harnessx-dataset.json")));
    const again = await cli.trace("export", "--format", "parquet", "--all", "--out", dataset());
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /0 run\(s\) written/);
    assert.match(again.stdout, /3 run\(s\) already exported, unchanged/);
  });

  test("one run, into another dataset", async () => {
    const out = join(cli.work, "one");
    const result = await json<Export>("export", "--format", "parquet", runIds[0]!, "--out", out);
    assert.deepEqual(
      result.runs.map((r) => r.runId),
      [runIds[0]],
    );
    assert.deepEqual(
      readdirSync(join(out, "runs")).flatMap((d) => readdirSync(join(out, "runs", d))),
      [`${runIds[0]}.parquet`],
    );
  });
});

describe("trace query --dataset gives the rows trace query --all gives", () => {
  const queries = {
    "failed runs by tool":
      "SELECT e.tool_name, count(DISTINCT e.run_id) AS failed_runs FROM events e JOIN runs r USING (run_id) WHERE r.status = 'failed' AND e.kind = 'tool_call_end' GROUP BY 1 ORDER BY 1",
    "tokens per run":
      "SELECT run_id, sum(input_tokens) AS input, sum(output_tokens) AS output FROM spans WHERE kind = 'model' GROUP BY 1 ORDER BY 1",
    "every event": "SELECT * FROM events ORDER BY run_id, seq",
    "runs with host and service":
      "SELECT run_id, agent, status, host, service, cost_usd, started_at FROM runs ORDER BY run_id",
  };
  for (const [name, sql] of Object.entries(queries)) {
    test(name, async () => {
      const fromStore = await json<unknown[]>("query", "--all", sql);
      assert.ok(fromStore.length > 0);
      assert.deepEqual(await json<unknown[]>("query", "--dataset", dataset(), sql), fromStore);
    });
  }

  test("--since leaves out the date partitions before it", async () => {
    const r = await cli.trace(
      "query",
      "--dataset",
      dataset(),
      "--since",
      "2999-01-01",
      "SELECT count(*) AS n FROM events",
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      await json("query", "--dataset", dataset(), "--since", "2999-01-01", "SELECT count(*)::INT AS n FROM events"),
      [{ n: 0 }],
    );
    assert.deepEqual(
      await json("query", "--dataset", dataset(), "--since", "7d", "SELECT count(*)::INT AS n FROM runs"),
      [{ n: 3 }],
    );
  });

  test("read-only like the store: writing a file is refused", async () => {
    const r = await cli.trace("query", "--dataset", dataset(), `COPY (SELECT 1) TO '${join(cli.work, "x.csv")}'`);
    assert.equal(r.code, 2);
    assert.ok(!existsSync(join(cli.work, "x.csv")));
  });
});

describe("trace ls --dataset", () => {
  test("lists the runs newest first, with host and service", async () => {
    const runs = await json<Array<{ run_id: string; host: string; service: string; status: string }>>(
      "ls",
      "--dataset",
      dataset(),
    );
    assert.deepEqual(runs.map((r) => r.run_id).sort(), [...runIds].sort());
    assert.ok(runs.every((r) => r.host === hostname()));
    assert.deepEqual(new Set(runs.map((r) => r.service)), new Set(["orders", "refunds"]));
    const failed = await json<unknown[]>("ls", "--dataset", dataset(), "--status", "failed");
    assert.equal(failed.length, 2);
    const text = await cli.trace("ls", "--dataset", dataset());
    assert.match(text.stdout, /RUN\s+HOST\s+SERVICE\s+AGENT\s+STATUS/);
  });
});

describe("what cannot be used is refused", () => {
  const cases: Array<[string, () => string[], number, RegExp]> = [
    ["an unknown format", () => ["export", "--format", "xml", "--all"], 2, /xml/],
    ["parquet without --out", () => ["export", "--format", "parquet", "--all"], 2, /--out/],
    ["--all for a bundle", () => ["export", "--all"], 2, /--format parquet/],
    [
      "raw spills in a dataset",
      () => ["export", "--format", "parquet", "--all", "--out", dataset(), "--include-raw-spills"],
      2,
      /redacted copies/,
    ],
    [
      "an --out that is a file",
      () => ["export", "--format", "parquet", "--all", "--out", join(cli.work, "a-file")],
      4,
      /not a folder/,
    ],
    [
      "an --out folder holding other things",
      () => ["export", "--format", "parquet", "--all", "--out", join(cli.work, "busy")],
      4,
      /not empty and not a dataset/,
    ],
    [
      "a dataset folder without harnessx-dataset.json",
      () => ["query", "--dataset", join(cli.work, "busy"), "SELECT 1"],
      4,
      /harnessx-dataset\.json/,
    ],
    ["a dataset that does not exist", () => ["ls", "--dataset", join(cli.work, "nowhere")], 3, /does not exist/],
    ["--since without --dataset", () => ["query", "--all", "--since", "1d", "SELECT 1"], 2, /--dataset/],
  ];
  before(() => {
    writeFileSync(join(cli.work, "a-file"), "x");
    mkdirSync(join(cli.work, "busy"), { recursive: true });
    writeFileSync(join(cli.work, "busy", "notes.txt"), "mine");
  });
  for (const [name, args, code, message] of cases) {
    test(name, async () => {
      const r = await cli.trace(...args());
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    });
  }

  test("a run still being recorded is not exported (exit 1); --all skips it", async () => {
    writeHandMadeRun(cli.store, "run_live", [eventLine("run_live", 1, "agent_start")]);
    const out = join(cli.work, "live");
    const one = await cli.trace("export", "--format", "parquet", "run_live", "--out", out);
    assert.equal(one.code, 1);
    assert.match(one.stderr, /still being recorded/);
    const all = await json<Export>("export", "--format", "parquet", "--all", "--out", out);
    assert.deepEqual(all.skipped, [{ runId: "run_live", reason: "recording" }]);
    assert.ok(!existsSync(join(out, "runs", "run_live.parquet")));
  });
});
