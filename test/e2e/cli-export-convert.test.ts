// The CLI writing a recorded run out: trace export makes an incident bundle that trace verify
// accepts and every reading command reads; trace convert writes OTLP JSON Lines and Chrome traces.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cliWithThreeRuns, json } from "../support/cli-runs.js";

const { cli, ids } = cliWithThreeRuns();

describe("trace export and verify make and check incident bundles", () => {
  test("export writes a bundle that verify accepts; ls shows it", async () => {
    const out = join(cli.work, "incident.tar");
    const e = await cli.trace("--json", "export", ids.ok, "-o", out, "--reason", "TICKET-42");
    assert.equal(e.code, 0, e.stderr);
    const exported = json<{ path: string; events: number }>(e.stdout);
    assert.equal(exported.path, out);
    assert.equal(exported.events, 20);
    const v = await cli.trace("--json", "verify", out);
    assert.equal(v.code, 0, v.stderr);
    const verified = json<{ ok: boolean; runId: string; reason: string; events: number }>(v.stdout);
    assert.deepEqual([verified.ok, verified.runId, verified.reason, verified.events], [true, ids.ok, "TICKET-42", 20]);
    const text = await cli.trace("verify", out);
    assert.match(text.stdout, /^OK /);
    const again = await cli.trace("export", ids.ok, "-o", out);
    assert.equal(again.code, 2, "an existing output is not replaced without --force");
    const d = await cli.trace("--json", "export", ids.ok);
    const inStore = json<{ path: string }>(d.stdout).path;
    assert.ok(inStore.startsWith(join(cli.store, "incidents")));
    const listed = json<Array<{ runId: string; bundle: string | null }>>((await cli.trace("--json", "ls")).stdout);
    assert.equal(listed.find((r) => r.runId === ids.ok)!.bundle, inStore);
  });
  test("every reading command accepts the bundle in place of a run", async () => {
    const out = join(cli.work, "for-reading.tar");
    assert.equal((await cli.trace("export", ids.ok, "-o", out)).code, 0);
    const s = json<{ runId: string }>((await cli.trace("--json", "summary", out)).stdout);
    assert.equal(s.runId, ids.ok);
    const rows = json<Array<{ n: number }>>(
      (await cli.trace("--json", "query", out, "SELECT count(*) AS n FROM events")).stdout,
    );
    assert.equal(rows[0]!.n, 20);
  });
});

describe("trace convert writes OTLP JSON Lines and Chrome traces", () => {
  test("--to otlp: one TracesData per line with the run's spans", async () => {
    const out = join(cli.work, "run.otlp.jsonl");
    const r = await cli.trace("convert", ids.ok, "--to", "otlp", "-o", out);
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> });
    const names = lines.flatMap((l) =>
      l.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.name))),
    );
    assert.ok(names.includes("execute_tool search") && names.includes("execute_tool flaky"), names.join(", "));
    assert.equal(names.filter((n) => n.startsWith("chat")).length, 3);
  });
  test("--to chrome to stdout: trace events with X slices", async () => {
    const r = await cli.trace("convert", ids.ok, "--to", "chrome");
    assert.equal(r.code, 0, r.stderr);
    const trace_ = JSON.parse(r.stdout) as {
      traceEvents: Array<{ ph: string; name: string; args?: { name?: string } }>;
    };
    assert.ok(trace_.traceEvents.filter((e) => e.ph === "X").length >= 7);
    const process_ = trace_.traceEvents.find((e) => e.name === "process_name");
    assert.equal(
      process_?.args?.name,
      `invoke_agent support-bot (${ids.ok})`,
      "the process is named after the run it recorded",
    );
  });
});
