// `trace resume <run> --agent <module>` on a durable run whose process was killed: the user's
// module builds the agent that journaled it, and the run finishes from its last committed phase.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-cli-resume-");
after(() => cli.cleanup());

/** A user's agent module: a durable agent with a safe lookup, a never-twice refund and an approval-gated close_ticket. */
function agentModule(durable = true): string {
  const core = import.meta.resolve("@harnessx/core");
  const recorder = import.meta.resolve("@harnessx/recorder");
  const path = join(cli.work, `agent-${durable ? "durable" : "plain"}.mjs`);
  writeFileSync(
    path,
    `import { appendFileSync } from "node:fs";
import { Agent, FileDurableStore, ScriptedProvider, tool } from ${JSON.stringify(core)};
import { FlightRecorderExtension } from ${JSON.stringify(recorder)};
const SCRIPT = [
  { toolCalls: [{ id: "l1", name: "lookup", input: { order: 42 } }] },
  { toolCalls: [{ id: "r1", name: "refund", input: { order: 42 } }] },
  { toolCalls: [{ id: "t1", name: "close_ticket", input: { order: 42 } }] },
  { text: "refunded order 42 and closed its ticket" },
];
export function createAgent() {
  const lookup = tool({ name: "lookup", description: "looks an order up", replayPolicy: "safe", execute: () => "order 42: $30, paid" });
  const refund = tool({ name: "refund", description: "refunds", replayPolicy: "never", execute: (input, ctx) => {
    appendFileSync(${JSON.stringify(join(cli.work, "refunds.log"))}, ctx.idempotencyKey + "\\n");
    if (process.env.CRASH_IN_REFUND) return new Promise(() => {});
    return "refunded $30";
  } });
  const close = tool({ name: "close_ticket", description: "closes", permission: "ask", execute: () => "closed" });
  return new Agent({ name: "refunds", provider: new ScriptedProvider(SCRIPT, { stepBy: "conversation" }), tools: [lookup, refund, close],
    ${durable ? `durable: { store: new FileDurableStore(${JSON.stringify(join(cli.work, "journals"))}) },` : ""}
    extensions: [new FlightRecorderExtension({ dir: ${JSON.stringify(cli.store)} })] });
}
`,
  );
  return path;
}

/** Runs the module's agent in a process that hangs inside refund, and kills it there: the run id. */
function crashInRefund(module: string): Promise<string> {
  const script = `import { createAgent } from ${JSON.stringify(module)};
const agent = createAgent();
agent.hooks.on("agent_start", (ctx) => console.log("run " + ctx.data.runId));
agent.hooks.on("tool_call_start", (ctx) => { if (ctx.data.toolCall.name === "refund") console.log("in refund"); });
setInterval(() => {}, 1000);
await agent.run("refund order 42");`;
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, CRASH_IN_REFUND: "1" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("in refund")) setTimeout(() => proc.kill("SIGKILL"), 200);
    });
    proc.on("error", reject);
    proc.on("exit", (_code, signal) =>
      signal === "SIGKILL" ? resolve(/run (\S+)/.exec(out)![1]!) : reject(new Error(`the run was not killed: ${out}`)),
    );
  });
}

describe("trace resume", () => {
  test("a run killed inside a never tool waits for approval, then completes without refunding twice", async () => {
    const module = agentModule();
    const runId = await crashInRefund(module);
    const refundsLog = join(cli.work, "refunds.log");
    assert.equal(readFileSync(refundsLog, "utf8").trim().split("\n").length, 1);

    const waiting = await cli.trace("resume", runId, "--agent", module);
    assert.equal(waiting.code, 1, waiting.stderr);
    assert.match(waiting.stdout, /awaiting_approval/);
    assert.match(waiting.stdout, /waiting: t1 close_ticket/);
    assert.match(
      waiting.stderr,
      new RegExp(`${runId} waits for approval of t1: run trace resume again with --approve t1`),
    );

    const done = await cli.trace("--json", "resume", runId.slice(0, 12), "--agent", module, "--approve", "t1");
    assert.equal(done.code, 0, done.stderr);
    const result = JSON.parse(done.stdout) as { runId: string; status: string; text: string; modelCalls: number };
    assert.equal(result.runId, runId, "a prefix of a recorded run names it");
    assert.equal(result.status, "completed");
    assert.equal(result.text, "refunded order 42 and closed its ticket");
    assert.equal(readFileSync(refundsLog, "utf8").trim().split("\n").length, 1, "the refund ran once");
    const journal = readFileSync(join(cli.work, "journals", `${runId}.ndjson`), "utf8");
    assert.match(journal, /not safe to run twice/, "the model was told the refund was interrupted");

    const again = await cli.trace("resume", runId, "--agent", module);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /already ended \(completed\)/);
  });

  test("clear refusals: an unknown run, an agent without a durable store, a missing module", async () => {
    const unknown = await cli.trace("resume", "run_nosuchrun", "--agent", agentModule());
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /no journal of run_nosuchrun/);
    const plain = await cli.trace("resume", "run_nosuchrun", "--agent", agentModule(false));
    assert.equal(plain.code, 4);
    assert.match(plain.stderr, /no durable store/);
    const missing = await cli.trace("resume", "run_x", "--agent", join(cli.work, "nope.mjs"));
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /cannot load the agent module/);
    assert.ok(!existsSync(join(cli.work, "journals", "run_x.ndjson")));
    const path = await cli.trace("resume", "../../etc/passwd", "--agent", agentModule());
    assert.equal(path.code, 2);
    assert.match(path.stderr, /is not a run id/);
  });
});
