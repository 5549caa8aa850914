// `trace` finds its store as git finds its repository: --store, else HARNESSX_DIR, else the
// nearest .harnessx with recordings from the current folder up.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Agent, ArtifactStore, FlightRecorderExtension, ResultSpillExtension, ScriptedProvider, tool } from "harnessx";
import { cliWorkspace, recordSupportRun, runTrace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-store-lookup-");
after(() => cli.cleanup());

describe("trace finds its store", () => {
  test("from a sub-folder, through HARNESSX_DIR, and --store first", async () => {
    const { runId } = await recordSupportRun(cli.store);
    const deep = join(cli.work, "src", "lib");
    mkdirSync(deep, { recursive: true });
    const env = { HARNESSX_DIR: "", HARNESSX_STORE: "" };
    const fromBelow = await runTrace(["--json", "ls"], { cwd: deep, env });
    assert.equal(fromBelow.code, 0, fromBelow.stderr);
    assert.deepEqual(
      (JSON.parse(fromBelow.stdout) as Array<{ runId: string }>).map((r) => r.runId),
      [runId],
    );

    const elsewhere = join(cli.work, "..");
    const byEnv = await runTrace(["--json", "ls"], { cwd: elsewhere, env: { ...env, HARNESSX_DIR: cli.store } });
    assert.deepEqual(
      (JSON.parse(byEnv.stdout) as Array<{ runId: string }>).map((r) => r.runId),
      [runId],
    );

    const explicit = await runTrace(["--store", join(cli.work, "nothing-here"), "ls"], {
      cwd: deep,
      env: { ...env, HARNESSX_DIR: cli.store },
    });
    assert.equal(explicit.code, 3, "--store wins over HARNESSX_DIR and the lookup");
  });
});

describe("two stores: the recorder's and the spill's", () => {
  test("the bundle export names result spilling as the owner of the spills it could not find", async () => {
    const table = JSON.stringify(Array.from({ length: 2_000 }, (_, i) => ({ id: i, label: `item ${i}` })));
    const agent = new Agent({
      provider: new ScriptedProvider([{ toolCalls: [{ name: "big_table", input: {} }] }, { text: "ok" }]),
      tools: [tool({ name: "big_table", description: "a big table", execute: () => table })],
      extensions: [
        new FlightRecorderExtension({ dir: cli.store }),
        new ResultSpillExtension({ store: new ArtifactStore(join(cli.work, "elsewhere")) }),
      ],
    });
    let runId: string;
    try {
      runId = (await agent.run("go")).runId;
    } finally {
      await agent.close();
    }
    const r = await cli.trace("export", runId, "-o", "two-stores.tar");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1 referenced artifact\(s\) were not in the store/);
    assert.match(r.stdout, /1 written by result spilling \(ResultSpillExtension\): was its store another folder\?/);
    assert.doesNotMatch(r.stdout, /written by the flight recorder/);
  });
});
