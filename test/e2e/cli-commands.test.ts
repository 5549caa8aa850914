import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, recordBusyRun, recordFailedRun, recordSupportRun, runTrace } from "@harnessx/cli/test-support";

const cli = cliWorkspace();

let okRun: string;
let failedRun: string;
let busyRun: string;

const json = <T>(text: string): T => JSON.parse(text) as T;

before(async () => {
  okRun = (await recordSupportRun(cli.store)).runId;
  failedRun = (await recordFailedRun(cli.store)).runId;
  busyRun = (await recordBusyRun(cli.store)).runId;
});
after(() => cli.cleanup());

describe("trace ls lists runs newest first with their figures", () => {
  test("table on stdout names every run with agent, status and counts", async () => {
    const r = await cli.trace("ls");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^RUN\s+AGENT\s+STATUS\s+START\s+DURATION\s+MODEL CALLS\s+TOOL CALLS\s+ERRORS\s+TOKENS\s+COST\s+BUNDLE/);
    assert.ok(r.stdout.includes(okRun) && r.stdout.includes(failedRun));
    assert.equal(r.stdout.includes("\u001b["), false, "no colour codes when not a terminal");
  });
  test("--json gives one object per run with documented fields, newest first", async () => {
    const r = await cli.trace("--json", "ls");
    assert.equal(r.code, 0, r.stderr);
    const runs = json<Array<Record<string, unknown>>>(r.stdout);
    assert.deepEqual(runs.map((x) => x.runId), [busyRun, failedRun, okRun]);
    const ok = runs.find((x) => x.runId === okRun)!;
    for (const key of ["agent", "status", "startedAt", "endedAt", "durationMs", "modelCalls", "toolCalls", "errors", "inputTokens", "outputTokens", "bundle"]) assert.ok(key in ok, key);
    assert.equal(ok.status, "completed");
    assert.equal(ok.modelCalls, 3);
    assert.equal(ok.toolCalls, 3);
    assert.equal(ok.inputTokens, 580);
  });
  test("--status, --since and --limit filter", async () => {
    const failed = json<Array<{ runId: string }>>((await cli.trace("--json", "ls", "--status", "failed")).stdout);
    assert.deepEqual(failed.map((x) => x.runId), [failedRun]);
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
    const failed = runs.find((r) => r.runId === failedRun)!;
    const found = await cli.trace("--json", "ls", "--trace-id", failed.traceId);
    assert.equal(found.code, 0, found.stderr);
    assert.deepEqual(json<Array<{ runId: string }>>(found.stdout).map((r) => r.runId), [failedRun]);
    const text = await cli.trace("ls", "--trace-id", failed.traceId);
    assert.ok(text.stdout.includes(failedRun) && !text.stdout.includes(okRun));
    const none = await cli.trace("ls", "--trace-id", "0af7651916cd43dd8448eb211c80319c");
    assert.equal(none.code, 0);
    assert.match(none.stderr, /no runs match the filters/);
  });
  test("a --trace-id that is not a trace id is a usage error naming the expected shape", async () => {
    for (const [value, hint] of [["abc", ""], ["A".repeat(32), " \\(use lowercase\\)"], ["0".repeat(32), " \\(all zeros is not a trace id\\)"]]) {
      const r = await cli.trace("ls", "--trace-id", value);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`--trace-id must be a trace id of 32 lowercase hex digits, got "${value}"${hint}`));
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
    const r = await cli.trace("summary", okRun.slice(0, 12));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /status\s+completed/);
    assert.match(r.stdout, /lookup_customer/);
    assert.match(r.stdout, /scripted-model\s+3\s+580\s+67/);
    assert.match(r.stdout, /extensions flight-recorder \[builtin\]/);
  });
  test("--json shape: kinds, models, tools with p50/p95/max and errors", async () => {
    const s = json<{
      status: string; events: number; kinds: Array<{ kind: string; count: number; bytes: number }>;
      models: Array<{ model: string; inputTokens: number }>; tools: Array<{ tool: string; calls: number; errors: number; p50Ms: number }>;
      dropped: { events: number }; redaction: unknown; extensions: Array<{ name: string; level: string; observers: string[] }>;
    }>((await cli.trace("--json", "summary", okRun)).stdout);
    assert.deepEqual(s.extensions.map((e) => [e.name, e.level, e.observers]), [["flight-recorder", "builtin", ["*"]]]);
    assert.equal(s.status, "completed");
    assert.equal(s.kinds.reduce((n, k) => n + k.count, 0), s.events);
    assert.ok(s.kinds.every((k) => k.bytes > 0));
    assert.equal(s.models[0].inputTokens, 580);
    const flaky = s.tools.find((t) => t.tool === "flaky")!;
    assert.equal(flaky.errors, 1);
    assert.ok(s.tools.find((t) => t.tool === "search")!.p50Ms >= 30);
    assert.equal(s.dropped.events, 0);
    assert.notEqual(s.redaction, "unknown");
  });
  test("a failed run shows its error", async () => {
    const s = json<{ status: string; error: { message: string } }>((await cli.trace("--json", "summary", failedRun)).stdout);
    assert.equal(s.status, "failed");
    assert.match(s.error.message, /prompt too long/);
  });
});

describe("spills and retries", () => {
  test("view spills lists the spilled result; view retries the retried model call", async () => {
    const spills = json<Array<{ tool: string; bytes: number; kind: string }>>((await cli.trace("--json", "view", busyRun, "spills")).stdout);
    assert.equal(spills.length, 1);
    assert.equal(spills[0].tool, "export_report");
    assert.ok(spills[0].bytes > 2000);
    const retries = json<Array<{ target: string; attempt: number; error: string }>>((await cli.trace("--json", "view", busyRun, "retries")).stdout);
    assert.deepEqual(retries.map((r) => [r.target, r.attempt]), [["model", 1]]);
    assert.match(retries[0].error, /overloaded/);
  });
  test("summary counts the spill; the store's artifacts table has it", async () => {
    const s = json<{ spills: { count: number; bytes: number } }>((await cli.trace("--json", "summary", busyRun)).stdout);
    assert.equal(s.spills.count, 1);
    assert.ok(s.spills.bytes > 2000);
    const artifacts = json<Array<{ kind: string; present: boolean; sha256: string }>>((await cli.trace("--json", "query", busyRun, "SELECT kind, present, sha256 FROM artifacts ORDER BY seq")).stdout);
    assert.deepEqual(artifacts.map((a) => [a.kind, a.present]), [["extension", true], ["extension", true]], "the spill event and the tool result both name the stored result");
    assert.equal(artifacts[0].sha256, artifacts[1].sha256);
  });
});

describe("trace show prints the timeline nested by span", () => {
  test("one line per event, tool calls nested under the run, the failing tool marked", async () => {
    const r = await cli.trace("show", okRun);
    assert.equal(r.code, 0, r.stderr);
    const [header, timeline] = r.stdout.split(/\n\n(?=#)/);
    const [extensions, config] = header.split("\n\n");
    assert.match(extensions, /^extensions \(1\)\n {2}flight-recorder@\d+\.\d+\.\d+\S* {2}\[builtin\] {2}observers \*$/, "the run's extensions come first, built-ins with their package versions");
    assert.match(config, /^config\n {2}provider scripted {2}name support-bot {2}model scripted-model {2}system \(\d+ chars\) {2}maxIterations 50\n/, "then the settings it ran with");
    assert.match(config, /contextBudgetTokens 150000/);
    assert.match(header, /\n\ntools \(3\)\n {2}search {2}concurrent {2}schema [0-9a-f]{8}\n {2}lookup_customer {2}concurrent {2}schema [0-9a-f]{8}\n {2}flaky {2}schema [0-9a-f]{8}$/, "then the tools it was offered");
    const lines = timeline.trim().split("\n");
    assert.equal(lines.length, 20);
    assert.match(lines[0], /agent_start/);
    assert.match(lines.find((l) => l.includes("tool_call_end") && l.includes("flaky"))!, /✗ tool_call_end\s+flaky failed/);
    const startIndent = lines.find((l) => l.includes("tool_call_start"))!.indexOf("tool_call_start");
    assert.ok(startIndent > lines[0].indexOf("agent_start"), "nested deeper than the run");
  });
  test("--from and --limit page through a run, and the note names the next page; --errors says what failed", async () => {
    const all = json<Array<{ seq: number }>>((await cli.trace("--json", "show", okRun)).stdout);
    const page = await cli.trace("--json", "show", okRun, "--from", String(all[4].seq), "--limit", "3");
    assert.equal(page.code, 0, page.stderr);
    assert.deepEqual(json<Array<{ seq: number }>>(page.stdout).map((e) => e.seq), all.slice(4, 7).map((e) => e.seq));
    assert.equal(page.stderr.trim(), `showing 3 matching events from #${all[4].seq}; --from ${all[7].seq} for the next ones`);
    const last = await cli.trace("show", okRun, "--from", String(all.at(-1)!.seq), "--limit", "3");
    assert.equal(last.stderr, "", "no note on the last page");
    assert.equal((await cli.trace("show", okRun, "--limit", "0")).code, 2);

    const errors = await cli.trace("show", okRun, "--errors");
    assert.match(errors.stdout, /✗ tool_call_end {2}flaky failed: Error: upstream timed out after 5000 ms/);
  });
  test("--kind, --tool and --errors filter; --json has depth and payloads with --full", async () => {
    const kinds = json<Array<{ kind: string }>>((await cli.trace("--json", "show", okRun, "--kind", "llm_response")).stdout);
    assert.equal(kinds.length, 3);
    assert.ok(kinds.every((e) => e.kind === "llm_response"));
    const search = json<Array<{ kind: string; attrs: { toolName?: string } }>>((await cli.trace("--json", "show", okRun, "--tool", "search")).stdout);
    assert.deepEqual(search.map((e) => e.kind), ["tool_call_start", "tool_call_end"]);
    const errors = json<Array<{ kind: string }>>((await cli.trace("--json", "show", failedRun, "--errors")).stdout);
    assert.deepEqual(errors.map((e) => e.kind), ["error", "agent_end"]);
    const text = (await cli.trace("show", failedRun, "--errors")).stdout;
    assert.match(text, /✗ error {2}\[provider\] ProviderError: invalid request: prompt too long/);
    assert.match(text, /✗ agent_end .*error: ProviderError: invalid request: prompt too long/);
    const full = json<Array<{ kind: string; depth: number; payload: { rawResult?: unknown } }>>((await cli.trace("--json", "show", okRun, "--tool", "search", "--full")).stdout);
    assert.equal(full[1].payload.rawResult, "product_docs: pricing costs $10 per seat");
    assert.equal(full[0].depth, 1);
  });
  test("--full prints payloads under each line", async () => {
    const r = await cli.trace("show", okRun, "--tool", "lookup_customer", "--full");
    assert.match(r.stdout, /"customer_id": "CUST-4711"/);
  });
});

describe("trace view and trace query run SQL over the recorder's tables", () => {
  test("view tools: calls, errors, latency per tool", async () => {
    const rows = json<Array<{ tool: string; calls: number; errors: number; p95_ms: number }>>((await cli.trace("--json", "view", okRun, "tools")).stdout);
    assert.deepEqual(rows.map((r) => r.tool).sort(), ["flaky", "lookup_customer", "search"]);
    assert.equal(rows.find((r) => r.tool === "flaky")!.errors, 1);
  });
  test("view models, errors, spills, retries", async () => {
    const models = json<Array<{ model: string; input_tokens: number }>>((await cli.trace("--json", "view", okRun, "models")).stdout);
    assert.deepEqual(models, [{ ...models[0], model: "scripted-model", input_tokens: 580 }]);
    const errors = json<Array<{ kind: string; message: string }>>((await cli.trace("--json", "view", failedRun, "errors")).stdout);
    assert.ok(errors.some((e) => e.kind === "error" && /prompt too long/.test(e.message)));
    assert.deepEqual(json((await cli.trace("--json", "view", okRun, "spills")).stdout), []);
    assert.deepEqual(json((await cli.trace("--json", "view", okRun, "retries")).stdout), []);
    const bad = await cli.trace("view", okRun, "bogus");
    assert.equal(bad.code, 2);
  });
  test("query groups tool calls by name; --json values are typed, --csv has a header", async () => {
    const sql = "SELECT name, count(*) AS calls FROM spans WHERE kind = 'tool' GROUP BY name ORDER BY name";
    const rows = json<Array<{ name: string; calls: number }>>((await cli.trace("--json", "query", okRun, sql)).stdout);
    assert.deepEqual(rows, [{ name: "execute_tool flaky", calls: 1 }, { name: "execute_tool lookup_customer", calls: 1 }, { name: "execute_tool search", calls: 1 }], "the span names backends show");
    const csv = await cli.trace("query", okRun, sql, "--csv");
    assert.equal(csv.stdout, "name,calls\nexecute_tool flaky,1\nexecute_tool lookup_customer,1\nexecute_tool search,1\n");
    const table = await cli.trace("query", okRun, sql);
    assert.match(table.stdout, /name\s+calls\nexecute_tool flaky\s+1/);
  });
  test("query --all spans every run of the store", async () => {
    const rows = json<Array<{ runs: number }>>((await cli.trace("--json", "query", "--all", "SELECT count(DISTINCT run_id) AS runs FROM events")).stdout);
    assert.equal(rows[0].runs, 3);
  });
});

describe("trace export and verify make and check incident bundles", () => {
  test("export writes a bundle that verify accepts; ls shows it", async () => {
    const out = join(cli.work, "incident.tar");
    const e = await cli.trace("--json", "export", okRun, "-o", out, "--reason", "TICKET-42");
    assert.equal(e.code, 0, e.stderr);
    const exported = json<{ path: string; events: number }>(e.stdout);
    assert.equal(exported.path, out);
    assert.equal(exported.events, 20);
    const v = await cli.trace("--json", "verify", out);
    assert.equal(v.code, 0, v.stderr);
    const verified = json<{ ok: boolean; runId: string; reason: string; events: number }>(v.stdout);
    assert.deepEqual([verified.ok, verified.runId, verified.reason, verified.events], [true, okRun, "TICKET-42", 20]);
    const text = await cli.trace("verify", out);
    assert.match(text.stdout, /^OK /);
    const again = await cli.trace("export", okRun, "-o", out);
    assert.equal(again.code, 2, "an existing output is not replaced without --force");
    const d = await cli.trace("--json", "export", okRun);
    const inStore = json<{ path: string }>(d.stdout).path;
    assert.ok(inStore.startsWith(join(cli.store, "incidents")));
    const listed = json<Array<{ runId: string; bundle: string | null }>>((await cli.trace("--json", "ls")).stdout);
    assert.equal(listed.find((r) => r.runId === okRun)!.bundle, inStore);
  });
  test("every reading command accepts the bundle in place of a run", async () => {
    const out = join(cli.work, "for-reading.tar");
    assert.equal((await cli.trace("export", okRun, "-o", out)).code, 0);
    const s = json<{ runId: string }>((await cli.trace("--json", "summary", out)).stdout);
    assert.equal(s.runId, okRun);
    const rows = json<Array<{ n: number }>>((await cli.trace("--json", "query", out, "SELECT count(*) AS n FROM events")).stdout);
    assert.equal(rows[0].n, 20);
  });
});

describe("trace convert writes OTLP JSON Lines and Chrome traces", () => {
  test("--to otlp: one TracesData per line with the run's spans", async () => {
    const out = join(cli.work, "run.otlp.jsonl");
    const r = await cli.trace("convert", okRun, "--to", "otlp", "-o", out);
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> });
    const names = lines.flatMap((l) => l.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.name))));
    assert.ok(names.includes("execute_tool search") && names.includes("execute_tool flaky"), names.join(", "));
    assert.equal(names.filter((n) => n.startsWith("chat")).length, 3);
  });
  test("--to chrome to stdout: trace events with X slices", async () => {
    const r = await cli.trace("convert", okRun, "--to", "chrome");
    assert.equal(r.code, 0, r.stderr);
    const trace_ = JSON.parse(r.stdout) as { traceEvents: Array<{ ph: string; name: string; args?: { name?: string } }> };
    assert.ok(trace_.traceEvents.filter((e) => e.ph === "X").length >= 7);
    const process_ = trace_.traceEvents.find((e) => e.name === "process_name");
    assert.equal(process_?.args?.name, `invoke_agent support-bot (${okRun})`, "the process is named after the run it recorded");
  });
});

describe("trace recover seals dead runs", () => {
  test("a finished run is left alone; --json reports it", async () => {
    const r = await cli.trace("--json", "recover", okRun);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(json<{ recovered: boolean }>(r.stdout).recovered, false);
    assert.equal(existsSync(join(cli.store, "runs", okRun, "run.json")), true);
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
    for (const name of ["ls", "summary", "show", "view", "query", "export", "verify", "convert", "push", "scrub", "recover", "replay", "report"]) assert.match(r.stdout, new RegExp(`\\n  ${name}\\b`), name);
    assert.match(r.stdout, /Exit codes:/);
  });
  test("an unknown command is a usage error", async () => {
    const r = await runTrace(["bogus"]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split("\n").length, 1);
  });
});
