// The CLI on a store of three recorded runs: trace ls lists them, trace summary reports one,
// trace recover leaves a finished run alone; help and an unknown command.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runTrace } from "@harnessx/cli/test-support";
import { cliWithThreeRuns, json } from "../support/cli-runs.js";

const { cli, ids } = cliWithThreeRuns();

describe("trace ls lists runs newest first with their figures", () => {
  test("table on stdout names every run with agent, status and counts", async () => {
    const r = await cli.trace("ls");
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^RUN\s+AGENT\s+STATUS\s+START\s+DURATION\s+MODEL CALLS\s+TOOL CALLS\s+ERRORS\s+TOKENS\s+COST\s+BUNDLE/,
    );
    assert.ok(r.stdout.includes(ids.ok) && r.stdout.includes(ids.failed));
    assert.equal(r.stdout.includes("\u001b["), false, "no colour codes when not a terminal");
  });
  test("--json gives one object per run with documented fields, newest first", async () => {
    const r = await cli.trace("--json", "ls");
    assert.equal(r.code, 0, r.stderr);
    const runs = json<Array<Record<string, unknown>>>(r.stdout);
    assert.deepEqual(
      runs.map((x) => x.runId),
      [ids.busy, ids.failed, ids.ok],
    );
    const ok = runs.find((x) => x.runId === ids.ok)!;
    for (const key of [
      "agent",
      "status",
      "startedAt",
      "endedAt",
      "durationMs",
      "modelCalls",
      "toolCalls",
      "errors",
      "inputTokens",
      "outputTokens",
      "bundle",
    ])
      assert.ok(key in ok, key);
    assert.equal(ok.status, "completed");
    assert.equal(ok.modelCalls, 3);
    assert.equal(ok.toolCalls, 3);
    assert.equal(ok.inputTokens, 580);
  });
  test("--status, --since and --limit filter", async () => {
    const failed = json<Array<{ runId: string }>>((await cli.trace("--json", "ls", "--status", "failed")).stdout);
    assert.deepEqual(
      failed.map((x) => x.runId),
      [ids.failed],
    );
    const limited = json<unknown[]>((await cli.trace("--json", "ls", "--limit", "1")).stdout);
    assert.equal(limited.length, 1);
    const future = json<unknown[]>((await cli.trace("--json", "ls", "--since", "2999-01-01")).stdout);
    assert.equal(future.length, 0);
    const recent = json<unknown[]>((await cli.trace("--json", "ls", "--since", "1h")).stdout);
    assert.equal(recent.length, 3);
  });
  test("--json gives each run's traceId (run.json's), and --trace-id finds the run of a backend's trace", async () => {
    const runs = json<Array<{ runId: string; traceId: string }>>((await cli.trace("--json", "ls")).stdout);
    for (const run of runs) {
      const manifest = json<{ traceId: string }>(readFileSync(join(cli.store, "runs", run.runId, "run.json"), "utf8"));
      assert.match(run.traceId, /^[0-9a-f]{32}$/);
      assert.equal(run.traceId, manifest.traceId);
    }
    assert.equal(new Set(runs.map((r) => r.traceId)).size, runs.length, "one trace per run");
    const failed = runs.find((r) => r.runId === ids.failed)!;
    const found = await cli.trace("--json", "ls", "--trace-id", failed.traceId);
    assert.equal(found.code, 0, found.stderr);
    assert.deepEqual(
      json<Array<{ runId: string }>>(found.stdout).map((r) => r.runId),
      [ids.failed],
    );
    const text = await cli.trace("ls", "--trace-id", failed.traceId);
    assert.ok(text.stdout.includes(ids.failed) && !text.stdout.includes(ids.ok));
    const none = await cli.trace("ls", "--trace-id", "0af7651916cd43dd8448eb211c80319c");
    assert.equal(none.code, 0);
    assert.match(none.stderr, /no runs match the filters/);
  });
  test("a --trace-id that is not a trace id is a usage error naming the expected shape", async () => {
    for (const [value, hint] of [
      ["abc", ""],
      ["A".repeat(32), " \\(use lowercase\\)"],
      ["0".repeat(32), " \\(all zeros is not a trace id\\)"],
    ]) {
      const r = await cli.trace("ls", "--trace-id", value);
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`--trace-id must be a trace id of 32 lowercase hex digits, got "${value}"${hint}`),
      );
    }
  });
  test("a bad --limit or --since is a usage error (exit 2)", async () => {
    const r = await cli.trace("ls", "--limit", "zero");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--limit must be a positive integer/);
    const s = await cli.trace("ls", "--since", "yesterday-ish");
    assert.equal(s.code, 2);
  });
});

describe("trace summary reports status, tokens, tool latency and redaction", () => {
  test("text output names the tools and models", async () => {
    const r = await cli.trace("summary", ids.ok.slice(0, 12));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /status\s+completed/);
    assert.match(r.stdout, /lookup_customer/);
    assert.match(r.stdout, /scripted-model\s+3\s+580\s+67/);
    assert.match(r.stdout, /extensions flight-recorder \[builtin\]/);
  });
  test("--json shape: kinds, models, tools with p50/p95/max and errors", async () => {
    const s = json<{
      status: string;
      events: number;
      kinds: Array<{ kind: string; count: number; bytes: number }>;
      models: Array<{ model: string; inputTokens: number }>;
      tools: Array<{ tool: string; calls: number; errors: number; p50Ms: number }>;
      dropped: { events: number };
      redaction: unknown;
      extensions: Array<{ name: string; level: string; observers: string[] }>;
    }>((await cli.trace("--json", "summary", ids.ok)).stdout);
    assert.deepEqual(
      s.extensions.map((e) => [e.name, e.level, e.observers]),
      [["flight-recorder", "builtin", ["*"]]],
    );
    assert.equal(s.status, "completed");
    assert.equal(
      s.kinds.reduce((n, k) => n + k.count, 0),
      s.events,
    );
    assert.ok(s.kinds.every((k) => k.bytes > 0));
    assert.equal(s.models[0].inputTokens, 580);
    const flaky = s.tools.find((t) => t.tool === "flaky")!;
    assert.equal(flaky.errors, 1);
    assert.ok(s.tools.find((t) => t.tool === "search")!.p50Ms >= 30);
    assert.equal(s.dropped.events, 0);
    assert.notEqual(s.redaction, "unknown");
  });
  test("a failed run shows its error", async () => {
    const s = json<{ status: string; error: { message: string } }>(
      (await cli.trace("--json", "summary", ids.failed)).stdout,
    );
    assert.equal(s.status, "failed");
    assert.match(s.error.message, /prompt too long/);
  });
});

describe("trace recover seals dead runs", () => {
  test("a finished run is left alone; --json reports it", async () => {
    const r = await cli.trace("--json", "recover", ids.ok);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(json<{ recovered: boolean }>(r.stdout).recovered, false);
    assert.equal(existsSync(join(cli.store, "runs", ids.ok, "run.json")), true);
  });
  test("without a run or --all it is a usage error", async () => {
    const r = await cli.trace("recover");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /name a run, or pass --all/);
  });
});

describe("help and version", () => {
  test("--help lists every command and the exit codes", async () => {
    const r = await runTrace(["--help"]);
    assert.equal(r.code, 0);
    for (const name of [
      "ls",
      "summary",
      "show",
      "view",
      "query",
      "export",
      "verify",
      "convert",
      "push",
      "scrub",
      "recover",
      "replay",
      "report",
    ])
      assert.match(r.stdout, new RegExp(`\\n  ${name}\\b`), name);
    assert.match(r.stdout, /Exit codes:/);
  });
  test("an unknown command is a usage error", async () => {
    const r = await runTrace(["bogus"]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split("\n").length, 1);
  });
});
