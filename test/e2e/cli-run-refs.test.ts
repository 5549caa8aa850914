// Run refs: `last` and `last-<status>` name a run without its id, so documented commands work as copied.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, recordFailedRun, recordSupportRun } from "@harnessx/cli/test-support";

const cli = cliWorkspace();
let failedId: string;
let completedId: string;

before(async () => {
  failedId = (await recordFailedRun(cli.store)).runId;
  completedId = (await recordSupportRun(cli.store)).runId;
});
after(() => cli.cleanup());

const summaryOf = async (ref: string) => {
  const r = await cli.trace("--json", "summary", ref);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as { runId: string; status: string };
};

describe("run refs", () => {
  test("last is the run that started last; last-<status> the newest of that status", async () => {
    assert.equal((await summaryOf("last")).runId, completedId);
    assert.equal((await summaryOf("last-completed")).runId, completedId);
    const failed = await summaryOf("last-failed");
    assert.deepEqual([failed.runId, failed.status], [failedId, "failed"]);
  });

  test("every kind of command takes them: show, tail, export, diff", async () => {
    const show = await cli.trace("show", "last-failed", "--errors");
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /invalid request: prompt too long/);
    assert.equal((await cli.trace("tail", "last", "-n", "1")).code, 0);
    const exported = await cli.trace("--json", "export", "last-failed", "-o", join(cli.work, "failed.tar"));
    assert.equal(exported.code, 0, exported.stderr);
    const diff = await cli.trace("diff", "last-completed", "last-failed");
    assert.equal(diff.code, 1, "two different runs differ");
    assert.ok(diff.stdout.includes(completedId) && diff.stdout.includes(failedId), diff.stdout);
  });

  test("no run of that status: exit 3 naming the ref; a word that is not a ref stays an id prefix", async () => {
    const r = await cli.trace("show", "last-crashed");
    assert.equal(r.code, 3);
    assert.match(r.stderr, /no crashed run in .* for "last-crashed"/);
    assert.equal(
      (await cli.trace("show", "last-broken")).code,
      3,
      "last-broken is no status: looked up as an id prefix",
    );
  });

  test("a file or folder of that name in the working directory keeps its meaning", async () => {
    const dir = join(cli.work, "last");
    mkdirSync(dir);
    cpSync(join(cli.store, "runs", failedId), dir, { recursive: true });
    assert.equal((await summaryOf("last")).runId, failedId, "the run directory ./last, not the newest run");
  });
});
