// Tail retention as the `trace` CLI shows it: runs the `retain` policy reduced to their summary
// are marked in `trace ls` (with the store's counts), `trace summary` reads them from run.json,
// and every command that needs events says they were deleted, with the not-found exit code.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, FlightRecorderExtension, ScriptedProvider, tool, type ScriptStep } from "harnessx";
import { cliWorkspace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-retain-");
const SLOW_MS = 800;
const wait = tool({
  name: "wait",
  description: "waits",
  execute: () => new Promise<string>((resolve) => setTimeout(() => resolve("waited"), SLOW_MS)),
});

const runs: Record<"failed" | "slow" | "cheap", string> = { failed: "", slow: "", cheap: "" };

async function record(steps: ScriptStep[]): Promise<string> {
  const recorder = new FlightRecorderExtension({
    dir: cli.store,
    retain: { always: ["failed"], slowerThanMs: SLOW_MS / 2 },
  });
  const agent = new Agent({
    name: "retained",
    provider: new ScriptedProvider(steps),
    tools: [wait],
    extensions: [recorder],
  });
  const result = await agent.run("go");
  await agent.close();
  return result.runId;
}

before(async () => {
  runs.failed = await record([{ error: { status: 400, message: "bad request" } }]);
  runs.slow = await record([{ toolCalls: [{ id: "w", name: "wait", input: {} }] }, { text: "done" }]);
  runs.cheap = await record([{ text: "quick", usage: { inputTokens: 7, outputTokens: 3 } }]);
});
after(() => cli.cleanup());

describe("trace ls marks runs reduced to their summary and counts kept and reduced runs", () => {
  test("the reduced run's status reads `(summary)`; a note gives the store's counts", async () => {
    const r = await cli.trace("ls");
    assert.equal(r.code, 0, r.stderr);
    const line = (id: string) => r.stdout.split("\n").find((l) => l.startsWith(id)) ?? "";
    assert.match(line(runs.cheap), /completed \(summary\)/);
    assert.match(line(runs.slow), /completed(?! \(summary\))/);
    assert.match(line(runs.failed), /failed(?! \(summary\))/);
    assert.match(r.stderr, /3 run\(s\) in the store: 2 with their events, 1 reduced to their summary by retention/);
  });

  test("--json lists each run's detail", async () => {
    const listed = JSON.parse((await cli.trace("--json", "ls")).stdout) as Array<{ runId: string; detail: string }>;
    assert.deepEqual(Object.fromEntries(listed.map((r) => [r.runId, r.detail])), {
      [runs.failed]: "full",
      [runs.slow]: "full",
      [runs.cheap]: "summary",
    });
  });
});

describe("a reduced run answers from its summary; commands that need its events refuse it clearly", () => {
  test("trace summary reads run.json: status, tokens, model calls", async () => {
    const r = await cli.trace("--json", "summary", runs.cheap);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as {
      status: string;
      models: Array<{ calls: number; inputTokens: number; outputTokens: number }>;
    };
    assert.equal(summary.status, "completed");
    assert.deepEqual(
      summary.models.map((m) => [m.calls, m.inputTokens, m.outputTokens]),
      [[1, 7, 3]],
    );
    assert.match(r.stderr, /events were deleted by tail retention/);
  });

  // RUN stands for the reduced run's id, known only once `before` ran.
  const needEvents: Array<[string, string[]]> = [
    ["show", ["show", "RUN"]],
    ["query", ["query", "RUN", "SELECT count(*) FROM events"]],
    ["export", ["export", "RUN"]],
    ["convert", ["convert", "RUN", "--to", "otlp"]],
    ["report", ["report", "RUN", "--out", "reduced.html"]],
    ["replay", ["replay", "RUN"]],
    ["tail", ["tail", "RUN"]],
  ];
  for (const [name, args] of needEvents) {
    test(`trace ${name} exits 3 (not found) saying retention deleted the events`, async () => {
      const r = await cli.trace(...args.map((a) => (a === "RUN" ? runs.cheap : a)));
      assert.equal(r.code, 3, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stderr, /were deleted by tail retention \(retain\)/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    });
  }
});
