import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { cliWorkspace } from "@harnessx/cli/test-support";
import { FlightRecorderExtension } from "@harnessx/recorder";
import { durableAgent, killedDurableRun } from "@harnessx/recorder/test-support";

const cli = cliWorkspace("hx-cli-durable-");
const journal = () => join(cli.work, "journal");

interface LsRow {
  runId: string;
  status: string;
  stale: boolean;
  durable: boolean;
  resumable: boolean;
  events: number;
}
const ls = async (): Promise<LsRow[]> => JSON.parse((await cli.trace("--json", "ls")).stdout) as LsRow[];

let runId: string;
before(async () => {
  runId = await killedDurableRun(journal(), cli.store);
});
after(() => cli.cleanup());

describe("trace follows a durable run across a crash and its resume", () => {
  test("ls marks the killed durable run resumable, before and after trace recover", async () => {
    const [dead] = await ls();
    assert.deepEqual(
      [dead.runId, dead.status, dead.stale, dead.durable, dead.resumable],
      [runId, "running", true, true, true],
    );
    assert.match((await cli.trace("ls")).stdout, /running \(dead, resumable\)/);
    assert.equal((await cli.trace("recover", runId)).code, 0);
    const [crashed] = await ls();
    assert.deepEqual([crashed.status, crashed.resumable], ["crashed", true]);
    assert.match((await cli.trace("ls")).stdout, /crashed \(resumable\)/);
  });

  test("after the resume: one completed run; show gives checkpoint phases and the time without a process; summary, export and verify read it whole", async () => {
    const agent = durableAgent(journal(), [new FlightRecorderExtension({ dir: cli.store })]);
    const result = await agent.resume(runId);
    await agent.close();
    assert.equal(result.status, "completed");

    const rows = await ls();
    assert.deepEqual(
      rows.map((r) => [r.runId, r.status, r.resumable]),
      [[runId, "completed", false]],
    );
    assert.doesNotMatch((await cli.trace("ls")).stdout, /resumable/);

    const shown = await cli.trace("show", runId);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /checkpoint {2}tool_started\n/);
    assert.match(shown.stdout, /checkpoint {2}run_end, completed\n/);
    assert.match(shown.stdout, /agent_start {2}agent agent model scripted-model durable resumed from its journal/);
    assert.match(
      shown.stdout,
      /recovery {2}resumed: resumed from its checkpoint of step 2.*1 call\(s\) interrupted; resumed after [\d.]+m?s without a process/,
    );
    const events = JSON.parse((await cli.trace("--json", "show", runId)).stdout) as Array<{
      seq: number;
      kind: string;
      attrs: Record<string, unknown>;
      resumedAfterMs?: number;
    }>;
    assert.deepEqual(
      events.map((e) => e.seq),
      events.map((_, i) => i + 1),
      "one numbering across both processes",
    );
    const recovered = events.findIndex((e) => e.kind === "recorder.recovered");
    const resumed = events.find((e) => e.kind === "recovery")!;
    assert.ok(recovered > 0 && events[recovered + 1].kind === "agent_start", "sealed, then the resumed part");
    assert.ok(resumed.resumedAfterMs! > 0);

    const summary = JSON.parse((await cli.trace("--json", "summary", runId)).stdout) as {
      status: string;
      events: number;
    };
    assert.deepEqual([summary.status, summary.events], ["completed", events.length]);
    const bundle = join(cli.work, "resumed.tar");
    assert.equal((await cli.trace("export", runId, "-o", bundle)).code, 0);
    const verified = await cli.trace("verify", bundle);
    assert.equal(verified.code, 0, verified.stderr);
    const fromBundle = JSON.parse((await cli.trace("--json", "show", bundle)).stdout) as unknown[];
    assert.equal(fromBundle.length, events.length, "the bundle holds both parts");
  });
});
