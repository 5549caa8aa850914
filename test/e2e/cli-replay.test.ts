import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, recordFailedRun, recordSupportRun, SUPPORT_SYSTEM, snapshot } from "@harnessx/cli/test-support";

const cli = cliWorkspace();

let runId: string;
let failedRun: string;
/** Recorded with a policy that adds a pattern for the company name in the system prompt. */
let companyRun: string;

interface ReplayJson {
  reproduced: boolean;
  recordedCalls: number;
  replayedCalls: number;
  recordedStatus: string;
  replayedStatus: string;
  divergence: { call: number; recordedSeq: number; path: string; recorded: unknown; actual: unknown } | null;
  configDifferences: string[];
  unappliedPatterns: string[];
}

/** An agent module as a user would write it: the support agent with its own search tool (`searchAnswer` is a JS expression of `query`). */
function agentModule(
  searchAnswer: string,
  settings = "",
  schema = '{ type: "object", properties: { query: { type: "string" } }, required: ["query"] }',
): string {
  const core = import.meta.resolve("@harnessx/core");
  const path = join(cli.work, `agent-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    path,
    `import { Agent, tool } from ${JSON.stringify(core)};
export function createAgent({ provider, tools, model, name }) {
  const search = tool({
    name: "search",
    description: "Search the product docs.",
    inputSchema: ${schema},
    concurrent: true,
    execute: ({ query }) => ${searchAnswer},
  });
  return new Agent({ provider, model, name, system: ${JSON.stringify(SUPPORT_SYSTEM)}, tools: tools.map((t) => (t.name === "search" ? search : t))${settings} });
}
`,
  );
  return path;
}

before(async () => {
  runId = (await recordSupportRun(cli.store)).runId;
  failedRun = (await recordFailedRun(cli.store)).runId;
  companyRun = (
    await recordSupportRun(cli.store, {}, undefined, {
      redact: { extraPatterns: [{ name: "company", pattern: /Example Corp/g }] },
    })
  ).runId;
});
after(() => cli.cleanup());

describe("trace replay reruns a recorded run through the runtime", () => {
  test("the recorded run reproduces exactly (exit 0), from the store and from a bundle", async () => {
    const before = snapshot(cli.store);
    const r = await cli.trace("--json", "replay", runId);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as ReplayJson;
    assert.equal(report.reproduced, true);
    assert.equal(report.recordedCalls, 3);
    assert.equal(report.replayedCalls, 3);
    assert.equal(report.replayedStatus, "completed");
    assert.equal(report.divergence, null);
    assert.deepEqual(snapshot(cli.store), before, "replay records nothing into the store");

    assert.equal((await cli.trace("export", runId, "-o", "run.tar")).code, 0);
    const fromBundle = await cli.trace("replay", "run.tar");
    assert.equal(fromBundle.code, 0, fromBundle.stderr);
    assert.match(fromBundle.stdout, /^reproduced run .*: 3\/3 model calls matched the recording, status completed/);
  });
  test("a failed run reproduces its failure", async () => {
    const report = JSON.parse((await cli.trace("--json", "replay", failedRun)).stdout) as ReplayJson;
    assert.equal(report.reproduced, true);
    assert.equal(report.replayedStatus, "failed");
  });
  test("the same agent code as a module reproduces too", async () => {
    const same = agentModule("`product_docs: ${query} costs $10 per seat`");
    const r = await cli.trace("--json", "replay", runId, "--agent", same);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as ReplayJson).reproduced, true);
  });
  test("changed tool code diverges: the report names the model call, the recorded event and the path (exit 1)", async () => {
    const module = agentModule("`PRODUCT DOCS v2: ${query}`");
    const r = await cli.trace("--json", "replay", runId, "--agent", module);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout) as ReplayJson;
    assert.equal(report.reproduced, false);
    assert.ok(report.divergence);
    assert.equal(report.divergence.call, 1, "the second model call is the first to see the changed tool result");
    assert.match(report.divergence.path, /^messages\./);
    assert.match(JSON.stringify(report.divergence.actual), /PRODUCT DOCS v2: pricing/);
    assert.match(JSON.stringify(report.divergence.recorded), /product_docs: pricing costs \$10 per seat/);
    assert.match(r.stderr.trim(), /^trace: replay of run_\w+ diverged at model call 2 \(messages\.[\w.]+\)$/);

    const text = await cli.trace("replay", runId, "--agent", module);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^diverged run /);
    assert.match(text.stdout, /first divergence at model call 2 \(recorded event #\d+\), at messages\./);
  });
  test("settings of the code under test that differ from the recorded run are reported as configuration, apart from behaviour", async () => {
    const module = agentModule(
      "`product_docs: ${query} costs $10 per seat`",
      ", context: { contextBudgetTokens: 50000 }, limits: { maxIterations: 7 }, retry: { maxAttempts: 2 }",
    );
    const r = await cli.trace("--json", "replay", runId, "--agent", module);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as ReplayJson;
    assert.equal(report.reproduced, true, "the same behaviour reproduces whatever the settings");
    assert.deepEqual(report.configDifferences, [
      "maxIterations 50 -> 7",
      "contextBudgetTokens 150000 -> 50000",
      "retry.maxAttempts 4 -> 2",
    ]);

    const text = await cli.trace("replay", runId, "--agent", module);
    assert.match(text.stdout, /^reproduced run /);
    assert.match(
      text.stdout,
      /configuration differs from the recording \(3\):\n {4}maxIterations 50 -> 7\n {4}contextBudgetTokens 150000 -> 50000\n {4}retry\.maxAttempts 4 -> 2/,
    );

    const same = await cli.trace(
      "--json",
      "replay",
      runId,
      "--agent",
      agentModule("`product_docs: ${query} costs $10 per seat`"),
    );
    assert.deepEqual((JSON.parse(same.stdout) as ReplayJson).configDifferences, []);
  });
  test("a tool whose input schema changed is reported among the differences, by its digest", async () => {
    const module = agentModule(
      "`product_docs: ${query} costs $10 per seat`",
      "",
      '{ type: "object", properties: { query: { type: "string" }, limit: { type: "number" } }, required: ["query"] }',
    );
    const report = JSON.parse((await cli.trace("--json", "replay", runId, "--agent", module)).stdout) as ReplayJson;
    assert.equal(report.configDifferences.length, 1, JSON.stringify(report.configDifferences));
    assert.match(report.configDifferences[0]!, /^tool search: schema [0-9a-f]{8} -> [0-9a-f]{8}$/);
  });
  test("a module that does not export createAgent is refused (exit 4)", async () => {
    const path = join(cli.work, "empty.mjs");
    writeFileSync(path, "export const nothing = 1;\n");
    const r = await cli.trace("replay", runId, "--agent", path);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /must export createAgent/);
  });
  test("new requests are redacted with the agent's own policy, never with the patterns the recording names", async () => {
    const same = agentModule(
      "`product_docs: ${query} costs $10 per seat`",
      ', redact: { extraPatterns: [{ name: "company", pattern: /Example Corp/g }] }',
    );
    const withPolicy = await cli.trace("--json", "replay", companyRun, "--agent", same);
    assert.equal(withPolicy.code, 0, withPolicy.stderr);
    assert.deepEqual((JSON.parse(withPolicy.stdout) as ReplayJson).unappliedPatterns, []);
    // The module's system prompt names the company; without the agent's pattern it stays, and differs.
    const without = await cli.trace(
      "--json",
      "replay",
      companyRun,
      "--agent",
      agentModule("`product_docs: ${query} costs $10 per seat`"),
    );
    assert.equal(without.code, 1);
    const report = JSON.parse(without.stdout) as ReplayJson;
    assert.equal(report.divergence?.path, "system");
    assert.deepEqual(report.unappliedPatterns, ["company"]);
    const text = await cli.trace(
      "replay",
      companyRun,
      "--agent",
      agentModule("`product_docs: ${query} costs $10 per seat`"),
    );
    assert.match(text.stdout, /the recording names redaction pattern\(s\) this replay does not apply \(company\)/);
  });
});
