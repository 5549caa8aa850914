// `trace` finds its store as git finds its repository: --store, else HARNESSX_DIR, else the
// nearest .harnessx with recordings from the current folder up.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
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
    assert.deepEqual((JSON.parse(fromBelow.stdout) as Array<{ runId: string }>).map((r) => r.runId), [runId]);

    const elsewhere = join(cli.work, "..");
    const byEnv = await runTrace(["--json", "ls"], { cwd: elsewhere, env: { ...env, HARNESSX_DIR: cli.store } });
    assert.deepEqual((JSON.parse(byEnv.stdout) as Array<{ runId: string }>).map((r) => r.runId), [runId]);

    const explicit = await runTrace(["--store", join(cli.work, "nothing-here"), "ls"], { cwd: deep, env: { ...env, HARNESSX_DIR: cli.store } });
    assert.equal(explicit.code, 3, "--store wins over HARNESSX_DIR and the lookup");
  });
});
