import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ScriptedProvider, type AgentOptions } from "@harnessx/core";
import { FlightRecorderExtension } from "@harnessx/recorder";
import {
  cliWorkspace,
  recordSupportRun,
  SUPPORT_SYSTEM,
  supportScript,
  supportTools,
} from "@harnessx/cli/test-support";

const cli = cliWorkspace();

interface DiffJson {
  same: boolean;
  a: { runId: string; modelCalls: number };
  b: { runId: string; modelCalls: number };
  configDifferences: string[];
  firstRequestChange: { call: number; path: string; a: unknown; b: unknown } | null;
  firstToolResultChange: {
    index: number;
    call: number;
    toolCallId: string | null;
    field: string;
    a: unknown;
    b: unknown;
  } | null;
  steps: Array<{
    call: number;
    a: { inputTokens: number } | null;
    b: { inputTokens: number } | null;
    delta: { inputTokens: number } | null;
  }>;
}

/** The support run with another search answer and other settings. */
async function recordChangedRun(
  searchResult: (query: string) => string,
  settings: Partial<AgentOptions>,
): Promise<string> {
  const script = supportScript().map((step, i) =>
    i === 1 && typeof step === "object" ? { ...step, usage: { inputTokens: 999, outputTokens: 12 } } : step,
  );
  const agent = new Agent({
    ...settings,
    provider: new ScriptedProvider(script),
    name: "support-bot",
    system: SUPPORT_SYSTEM,
    tools: supportTools(searchResult),
    extensions: [new FlightRecorderExtension({ dir: cli.store })],
  });
  try {
    return (await agent.run("How much is pricing for alice@example.com?")).runId;
  } finally {
    await agent.close();
  }
}

let good: string;
let again: string;
let changed: string;
before(async () => {
  good = (await recordSupportRun(cli.store)).runId;
  again = (await recordSupportRun(cli.store)).runId;
  changed = await recordChangedRun((q) => `PRODUCT DOCS v2: ${q}`, { context: { contextBudgetTokens: 50_000 } });
});
after(() => cli.cleanup());

describe("trace diff compares two runs of the same agent", () => {
  test("two runs that did the same are the same (exit 0), whatever their timings", async () => {
    const r = await cli.trace("--json", "diff", good, again);
    assert.equal(r.code, 0, r.stderr);
    const diff = JSON.parse(r.stdout) as DiffJson;
    assert.equal(diff.same, true);
    assert.equal(diff.firstRequestChange, null);
    assert.equal(diff.firstToolResultChange, null);
    assert.deepEqual(diff.configDifferences, []);
    assert.ok(diff.steps.every((s) => s.delta?.inputTokens === 0));
    assert.match(
      (await cli.trace("diff", good, again)).stdout,
      /same: requests, tool results, configuration and status agree/,
    );
  });

  test("a changed tool result and a changed setting: where the runs part, what differs, and the token deltas per call (exit 1)", async () => {
    const r = await cli.trace("--json", "diff", good, changed);
    assert.equal(r.code, 1);
    const diff = JSON.parse(r.stdout) as DiffJson;
    assert.equal(diff.same, false);
    assert.deepEqual(diff.configDifferences, ["contextBudgetTokens 150000 -> 50000"]);
    assert.ok(diff.firstToolResultChange);
    assert.equal(diff.firstToolResultChange.field, "result");
    assert.equal(diff.firstToolResultChange.toolCallId, "call_search");
    assert.equal(diff.firstToolResultChange.call, 1, "the search asked for by the first model call");
    assert.match(String(diff.firstToolResultChange.a), /^product_docs: pricing/);
    assert.match(String(diff.firstToolResultChange.b), /^PRODUCT DOCS v2: pricing/);
    assert.ok(diff.firstRequestChange);
    assert.equal(diff.firstRequestChange.call, 2, "the second model call is the first to see the changed result");
    assert.match(diff.firstRequestChange.path, /^messages\.\d+\.content\.\d+\.content$/);
    assert.equal(diff.steps.length, 3);
    assert.deepEqual(
      diff.steps.map((s) => s.delta?.inputTokens),
      [0, 999 - (diff.steps[1]!.a?.inputTokens ?? 0), 0],
    );

    const text = await cli.trace("diff", good, changed);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /configuration \(1\):\n {2}contextBudgetTokens 150000 -> 50000/);
    assert.match(text.stdout, /first request difference: model call 2 \(A event #\d+, B event #\d+\), at messages\./);
    assert.match(
      text.stdout,
      /first tool result difference: tool call 1 \(call_search\) after model call 1, result\n {2}A: "product_docs: pricing/,
    );
    assert.match(text.stdout, /model calls 1-3 of 3 \(B minus A\):/);
    assert.match(text.stderr, /trace: run_\w+ and run_\w+ differ/);
  });

  test("a run and its bundle are the same run", async () => {
    assert.equal((await cli.trace("export", good, "-o", "good.tar")).code, 0);
    const r = await cli.trace("--json", "diff", good, "good.tar");
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });
});
