// The CLI reading one recorded run in detail: trace show's timeline nested by span, trace view's
// tables (spills and retries included) and trace query's SQL over the recorder's tables.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { cliWithThreeRuns, json } from "../support/cli-runs.js";

const { cli, ids } = cliWithThreeRuns();

describe("spills and retries", () => {
  test("view spills lists the spilled result; view retries the retried model call", async () => {
    const spills = json<Array<{ tool: string; bytes: number; kind: string }>>(
      (await cli.trace("--json", "view", ids.busy, "spills")).stdout,
    );
    assert.equal(spills.length, 1);
    assert.equal(spills[0]!.tool, "export_report");
    assert.ok(spills[0]!.bytes > 2000);
    const retries = json<Array<{ target: string; attempt: number; error: string }>>(
      (await cli.trace("--json", "view", ids.busy, "retries")).stdout,
    );
    assert.deepEqual(
      retries.map((r) => [r.target, r.attempt]),
      [["model", 1]],
    );
    assert.match(retries[0]!.error, /overloaded/);
  });
  test("summary counts the spill; the store's artifacts table has it", async () => {
    const s = json<{ spills: { count: number; bytes: number } }>(
      (await cli.trace("--json", "summary", ids.busy)).stdout,
    );
    assert.equal(s.spills.count, 1);
    assert.ok(s.spills.bytes > 2000);
    const artifacts = json<Array<{ kind: string; present: boolean; sha256: string }>>(
      (await cli.trace("--json", "query", ids.busy, "SELECT kind, present, sha256 FROM artifacts ORDER BY seq")).stdout,
    );
    assert.deepEqual(
      artifacts.map((a) => [a.kind, a.present]),
      [
        ["extension", true],
        ["extension", true],
      ],
      "the spill event and the tool result both name the stored result",
    );
    assert.equal(artifacts[0]!.sha256, artifacts[1]!.sha256);
  });
});

describe("trace show prints the timeline nested by span", () => {
  test("one line per event, tool calls nested under the run, the failing tool marked", async () => {
    const r = await cli.trace("show", ids.ok);
    assert.equal(r.code, 0, r.stderr);
    const [header, timeline] = r.stdout.split(/\n\n(?=#)/) as [string, string];
    const [extensions, config] = header.split("\n\n") as [string, string];
    assert.match(
      extensions,
      /^extensions \(1\)\n {2}flight-recorder@\d+\.\d+\.\d+\S* {2}\[builtin\] {2}observers \*$/,
      "the run's extensions come first, built-ins with their package versions",
    );
    assert.match(
      config,
      /^config\n {2}provider scripted {2}name support-bot {2}model scripted-model {2}system \(\d+ chars\) {2}maxIterations 50\n/,
      "then the settings it ran with",
    );
    assert.match(config, /contextBudgetTokens 150000/);
    assert.match(
      header,
      /\n\ntools \(3\)\n {2}search {2}concurrent {2}schema [0-9a-f]{8}\n {2}lookup_customer {2}concurrent {2}schema [0-9a-f]{8}\n {2}flaky {2}schema [0-9a-f]{8}$/,
      "then the tools it was offered",
    );
    const lines = timeline.trim().split("\n");
    assert.equal(lines.length, 20);
    assert.match(lines[0]!, /agent_start/);
    assert.match(
      lines.find((l) => l.includes("tool_call_end") && l.includes("flaky"))!,
      /✗ tool_call_end\s+flaky failed/,
    );
    const startIndent = lines.find((l) => l.includes("tool_call_start"))!.indexOf("tool_call_start");
    assert.ok(startIndent > lines[0]!.indexOf("agent_start"), "nested deeper than the run");
  });
  test("--from and --limit page through a run, and the note names the next page; --errors says what failed", async () => {
    const all = json<Array<{ seq: number }>>((await cli.trace("--json", "show", ids.ok)).stdout);
    const page = await cli.trace("--json", "show", ids.ok, "--from", String(all[4]!.seq), "--limit", "3");
    assert.equal(page.code, 0, page.stderr);
    assert.deepEqual(
      json<Array<{ seq: number }>>(page.stdout).map((e) => e.seq),
      all.slice(4, 7).map((e) => e.seq),
    );
    assert.equal(
      page.stderr.trim(),
      `showing 3 matching events from #${all[4]!.seq}; --from ${all[7]!.seq} for the next ones`,
    );
    const last = await cli.trace("show", ids.ok, "--from", String(all.at(-1)!.seq), "--limit", "3");
    assert.equal(last.stderr, "", "no note on the last page");
    assert.equal((await cli.trace("show", ids.ok, "--limit", "0")).code, 2);

    const errors = await cli.trace("show", ids.ok, "--errors");
    assert.match(errors.stdout, /✗ tool_call_end {2}flaky failed: Error: upstream timed out after 5000 ms/);
  });
  test("--kind, --tool and --errors filter; --json has depth and payloads with --full", async () => {
    const kinds = json<Array<{ kind: string }>>(
      (await cli.trace("--json", "show", ids.ok, "--kind", "llm_response")).stdout,
    );
    assert.equal(kinds.length, 3);
    assert.ok(kinds.every((e) => e.kind === "llm_response"));
    const search = json<Array<{ kind: string; attrs: { toolName?: string } }>>(
      (await cli.trace("--json", "show", ids.ok, "--tool", "search")).stdout,
    );
    assert.deepEqual(
      search.map((e) => e.kind),
      ["tool_call_start", "tool_call_end"],
    );
    const errors = json<Array<{ kind: string }>>((await cli.trace("--json", "show", ids.failed, "--errors")).stdout);
    assert.deepEqual(
      errors.map((e) => e.kind),
      ["error", "agent_end"],
    );
    const text = (await cli.trace("show", ids.failed, "--errors")).stdout;
    assert.match(text, /✗ error {2}\[provider\] ProviderError: invalid request: prompt too long/);
    assert.match(text, /✗ agent_end .*error: ProviderError: invalid request: prompt too long/);
    const full = json<Array<{ kind: string; depth: number; payload: { rawResult?: unknown } }>>(
      (await cli.trace("--json", "show", ids.ok, "--tool", "search", "--full")).stdout,
    );
    assert.equal(full[1]!.payload.rawResult, "product_docs: pricing costs $10 per seat");
    assert.equal(full[0]!.depth, 1);
  });
  test("--full prints payloads under each line", async () => {
    const r = await cli.trace("show", ids.ok, "--tool", "lookup_customer", "--full");
    assert.match(r.stdout, /"customer_id": "CUST-4711"/);
  });
});

describe("trace view and trace query run SQL over the recorder's tables", () => {
  test("view tools: calls, errors, latency per tool", async () => {
    const rows = json<Array<{ tool: string; calls: number; errors: number; p95_ms: number }>>(
      (await cli.trace("--json", "view", ids.ok, "tools")).stdout,
    );
    assert.deepEqual(rows.map((r) => r.tool).sort(), ["flaky", "lookup_customer", "search"]);
    assert.equal(rows.find((r) => r.tool === "flaky")!.errors, 1);
  });
  test("view models, errors, spills, retries", async () => {
    const models = json<Array<{ model: string; input_tokens: number }>>(
      (await cli.trace("--json", "view", ids.ok, "models")).stdout,
    );
    assert.deepEqual(models, [{ ...models[0], model: "scripted-model", input_tokens: 580 }]);
    const errors = json<Array<{ kind: string; message: string }>>(
      (await cli.trace("--json", "view", ids.failed, "errors")).stdout,
    );
    assert.ok(errors.some((e) => e.kind === "error" && /prompt too long/.test(e.message)));
    assert.deepEqual(json((await cli.trace("--json", "view", ids.ok, "spills")).stdout), []);
    assert.deepEqual(json((await cli.trace("--json", "view", ids.ok, "retries")).stdout), []);
    const bad = await cli.trace("view", ids.ok, "bogus");
    assert.equal(bad.code, 2);
  });
  test("query groups tool calls by name; --json values are typed, --csv has a header", async () => {
    const sql = "SELECT name, count(*) AS calls FROM spans WHERE kind = 'tool' GROUP BY name ORDER BY name";
    const rows = json<Array<{ name: string; calls: number }>>((await cli.trace("--json", "query", ids.ok, sql)).stdout);
    assert.deepEqual(
      rows,
      [
        { name: "execute_tool flaky", calls: 1 },
        { name: "execute_tool lookup_customer", calls: 1 },
        { name: "execute_tool search", calls: 1 },
      ],
      "the span names backends show",
    );
    const csv = await cli.trace("query", ids.ok, sql, "--csv");
    assert.equal(
      csv.stdout,
      "name,calls\nexecute_tool flaky,1\nexecute_tool lookup_customer,1\nexecute_tool search,1\n",
    );
    const table = await cli.trace("query", ids.ok, sql);
    assert.match(table.stdout, /name\s+calls\nexecute_tool flaky\s+1/);
  });
  test("query --all spans every run of the store", async () => {
    const rows = json<Array<{ runs: number }>>(
      (await cli.trace("--json", "query", "--all", "SELECT count(DISTINCT run_id) AS runs FROM events")).stdout,
    );
    assert.equal(rows[0]!.runs, 3);
  });
});
