import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { openBundle, RecordingStore } from "harnessx";
import { runDemo } from "./run-demo.js";

test("the demo runs on the embedded model: parallel, slow and failing tools, a spilled table queried with SQL, recorded and exported", async () => {
  const dir = mkdtempSync(join(tmpdir(), "harnessx-demo-"));
  try {
    const lines: string[] = [];
    const { result, failed, bundlePath, otlpPath } = await runDemo({ dir, write: (l) => lines.push(l), env: {} });
    assert.equal(result.status, "completed", result.error?.message);
    const out = lines.join("\n");
    assert.match(out, /embedded scripted model/);
    assert.match(out, /tool search_orders ok/);
    assert.match(out, /tool charge_card FAILED/);
    assert.match(out, /result_spill\.spill/);
    assert.match(result.text, /Best sellers this quarter: \w+ \(\d+\)/);
    assert.equal(lines.filter((l) => /tool (get_weather|search_orders) started/.test(l)).length, 2);
    assert.match(out, /tool load_skill ok/, "the demo loads its skill");
    assert.match(
      out,
      /tool mcp__shipping__track_order ok \(executed, \d+ ms\): \{"orderId":"A-1002","carrier":"UPS"/,
      "the demo calls its MCP server",
    );
    assert.match(
      out,
      /status \[status-line\]: 5 model calls · 4,162 in \+ 216 out tokens · \$0\.0157/,
      "the demo prints its status line",
    );

    // Then a second, failing run, for `trace ls --status failed` and the README's walkthrough: one line of output.
    assert.equal(failed.status, "failed");
    assert.deepEqual(
      lines.filter((l) => l.includes(failed.runId)),
      [
        `failing run: ${failed.runId} failed (ProviderError: model overloaded, try again later); npx trace ls --status failed lists it`,
      ],
    );
    const runs = await new RecordingStore(dir).listRuns();
    assert.deepEqual(
      runs.map((r) => [r.runId, r.status]).sort(),
      [
        [result.runId, "completed"],
        [failed.runId, "failed"],
      ].sort(),
    );
    const bundle = await openBundle(bundlePath);
    const command = bundle.events.find((e) => e.kind === "command_invoked");
    assert.deepEqual(
      [command?.attrs.command, command?.attrs.sent],
      ["support", true],
      "the run starts from the /support command",
    );
    assert.equal(bundle.events.find((e) => e.kind === "skill_invoked")?.attrs.skill, "card-payments");
    assert.equal(bundle.manifest.run.runId, result.runId);
    assert.ok(
      bundle.manifest.members.some((m) => m.path.startsWith("artifacts/")),
      "the spilled table travels with the bundle",
    );
    assert.ok(otlpPath && existsSync(otlpPath));
    const traces = readFileSync(otlpPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const names = traces.flatMap((t) =>
      t.resourceSpans.flatMap((r: { scopeSpans: Array<{ spans: Array<{ name: string }> }> }) =>
        r.scopeSpans.flatMap((s) => s.spans.map((sp) => sp.name)),
      ),
    );
    assert.ok(names.includes("invoke_agent support-agent"));
    assert.ok(names.includes("execute_tool read_result"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
