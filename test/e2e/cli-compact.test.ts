// `trace compact` moves ended runs into the store's Parquet partitions; `trace query --all`
// answers the same before and after, each run once, and a run still open keeps its segments.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Agent, FlightRecorderExtension, ScriptedProvider, tool } from "harnessx";
import { cliWorkspace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-compact-");
const lookup = tool({ name: "lookup", description: "Looks an order up.", execute: () => "order 42: shipped" });
const SQL = `SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM events) AS events,
  (SELECT count(*) FROM spans WHERE kind = 'tool') AS tools, (SELECT sum(output_tokens) FROM spans WHERE kind = 'model') AS tokens`;

before(async () => {
  const agent = new Agent({
    provider: new ScriptedProvider(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? { toolCalls: [{ name: "lookup", input: {} }], usage: { inputTokens: 10, outputTokens: 3 } }
          : { text: "Shipped.", usage: { inputTokens: 12, outputTokens: 4 } },
      ),
    ),
    tools: [lookup],
    extensions: [new FlightRecorderExtension({ dir: cli.store })],
  });
  for (let i = 0; i < 3; i++) await agent.run(`order ${i}`);
  await agent.close();
});
after(() => cli.cleanup());

async function query(): Promise<unknown> {
  const r = await cli.trace("--json", "query", "--all", SQL);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe("trace compact", () => {
  test("compacts the ended runs; trace query --all answers the same; a second has nothing to do", async () => {
    const before = await query();
    assert.deepEqual(before, [{ runs: 3, events: (before as [{ events: number }])[0].events, tools: 3, tokens: 21 }]);
    const r = await cli.trace("compact");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^3 run\(s\), \d+ events compacted into 4 file\(s\)$/m);
    assert.ok(existsSync(join(cli.store, "parts", "events")));
    assert.deepEqual(await query(), before);
    const again = await cli.trace("--json", "compact");
    assert.deepEqual(JSON.parse(again.stdout), { done: true, runs: 0, events: 0, files: [] });
  });

  test("a bad --max-runs is a usage error", async () => {
    const r = await cli.trace("compact", "--max-runs", "0");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--max-runs must be a positive integer/);
  });
});
