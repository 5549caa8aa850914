// The incident workflow on the demo's own recording: the CLI reads it, replays it exactly, verifies its bundle.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { runDemo } from "@harnessx/examples/demo";

const root = new URL("../..", import.meta.url).pathname;
const bin = join(root, "cli", "dist", "bin.js");
let dir = "";
let runId = "";
let bundle = "";

function trace(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args, "--store", dir], { encoding: "utf8", timeout: 120_000, env: { ...process.env, NO_COLOR: "1" } });
}

describe("trace on the demo's recording", () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "harnessx-demo-trace-"));
    const outcome = await runDemo({ dir, write: () => {}, env: {} });
    runId = outcome.result.runId;
    bundle = outcome.bundlePath;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("ls --json lists the demo run with its counts", () => {
    const out = trace("ls", "--json");
    assert.equal(out.status, 0, out.stderr);
    const runs = JSON.parse(out.stdout) as Array<Record<string, unknown>>;
    assert.equal(runs.length, 1);
    assert.equal(runs[0].runId, runId);
    assert.equal(runs[0].status, "completed");
  });

  test("replay reproduces the recorded demo run exactly (spilled result included)", () => {
    const out = trace("replay", runId.slice(0, 14));
    assert.equal(out.status, 0, out.stdout + out.stderr);
    assert.match(out.stdout, /reproduced run .*: 5\/5 model calls matched/);
  });

  test("the demo's bundle verifies and replays too", () => {
    assert.equal(trace("verify", bundle).status, 0);
    const out = trace("replay", bundle, "--json");
    assert.equal(out.status, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).reproduced, true);
  });

  test("query answers over the recording: the spilled tool and the SQL read of it", () => {
    const out = trace("query", runId, "SELECT name FROM spans WHERE kind = 'tool' ORDER BY name", "--json");
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual((JSON.parse(out.stdout) as Array<{ name: string }>).map((r) => r.name), ["execute_tool charge_card", "execute_tool export_sales", "execute_tool get_weather", "execute_tool load_skill", "execute_tool mcp__shipping__track_order", "execute_tool read_result", "execute_tool search_orders"]);
  });
});
