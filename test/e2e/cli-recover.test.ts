import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, runTrace } from "@harnessx/cli/test-support";
import { eventLine, writeHandMadeRun } from "@harnessx/recorder/test-support";

const cli = cliWorkspace();

let runId: string;

/** Records a run whose tool never returns, then is killed with SIGKILL once its first events are on disk. */
async function crashedRun(): Promise<string> {
  const core = import.meta.resolve("@harnessx/core");
  const recorder = import.meta.resolve("@harnessx/recorder");
  const script = join(cli.work, "crash.mjs");
  writeFileSync(
    script,
    `import { Agent, ScriptedProvider, tool } from ${JSON.stringify(core)};
import { FlightRecorderExtension } from ${JSON.stringify(recorder)};
const hang = tool({ name: "hang", description: "never returns", inputSchema: { type: "object" }, execute: () => new Promise(() => {}) });
const agent = new Agent({ name: "doomed", provider: new ScriptedProvider([{ toolCalls: [{ id: "c1", name: "hang", input: {} }] }]), tools: [hang],
  extensions: [new FlightRecorderExtension({ dir: ${JSON.stringify(cli.store)}, flushIntervalMs: 10 })] });
agent.run("go");
setInterval(() => {}, 1000);
`,
  );
  const child = spawn(process.execPath, [script], { stdio: "ignore" });
  const runs = join(cli.store, "runs");
  for (let i = 0; i < 200; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const dirs = existsSync(runs) ? readdirSync(runs) : [];
    const segments = dirs.length ? join(runs, dirs[0], "segments") : "";
    if (
      segments &&
      existsSync(segments) &&
      readdirSync(segments).some(
        (n) => n.endsWith(".ndjson") && readFileSync(join(segments, n), "utf8").includes("tool_call_start"),
      )
    ) {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      return dirs[0];
    }
  }
  child.kill("SIGKILL");
  throw new Error("the recording child never wrote its tool call");
}

before(async () => {
  runId = await crashedRun();
});
after(() => cli.cleanup());

describe("trace recover seals a run whose process was killed", () => {
  test("ls shows the dead run; recover marks it crashed; its timeline ends with recorder.recovered", async () => {
    const listed = JSON.parse((await cli.trace("--json", "ls")).stdout) as Array<{
      runId: string;
      status: string;
      stale: boolean;
    }>;
    assert.equal(listed[0].runId, runId);
    assert.equal(listed[0].status, "running");
    assert.equal(listed[0].stale, true);
    const text = await cli.trace("ls");
    assert.match(text.stdout, /running \(dead: trace recover\)/);

    const r = await cli.trace("--json", "recover", "--all");
    assert.equal(r.code, 0, r.stderr);
    const results = JSON.parse(r.stdout) as Array<{ runId: string; recovered: boolean; status: string }>;
    assert.deepEqual(
      results.map((x) => [x.runId, x.recovered, x.status]),
      [[runId, true, "crashed"]],
    );

    const show = JSON.parse((await cli.trace("--json", "show", runId)).stdout) as Array<{ kind: string }>;
    assert.ok(show.some((e) => e.kind === "tool_call_start"));
    assert.equal(show[show.length - 1].kind, "recorder.recovered");
    const again = await cli.trace("recover", runId);
    assert.match(again.stdout, /already sealed \(status crashed\); nothing to do/);
    const summary = JSON.parse((await cli.trace("--json", "summary", runId)).stdout) as { status: string };
    assert.equal(summary.status, "crashed");
  });
});

describe("trace recover counts torn bytes on the bytes", () => {
  test("a torn last line holding invalid UTF-8 after a line holding some", async () => {
    const handMade = join(cli.work, "hand-made");
    const bad = Buffer.from([0xff, 0xfe, 0xc3]);
    const line = Buffer.from(eventLine("run_utf8", 1, "agent_start", { agent: "a" }));
    const tail = Buffer.concat([Buffer.from('{"v":1,"seq":2,"ki'), bad]);
    writeHandMadeRun(handMade, "run_utf8", [Buffer.concat([line.subarray(0, 20), bad, line.subarray(20), tail])]);
    const r = await runTrace(["--store", handMade, "recover", "run_utf8"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`, ${tail.length} torn bytes cut$`, "m"));
  });
});
