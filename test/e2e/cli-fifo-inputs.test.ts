// A FIFO (named pipe) with no writer where the CLI reads a file of a store, a bundle or a journal
// folder: opening it to read would wait forever. Each command refuses it at once with exit 4 (a
// command that waits is killed by the timeout and fails the test).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, recordSupportRun, runTrace } from "@harnessx/cli/test-support";
import { makeFifo } from "../support/system.js";

const cli = cliWorkspace("hx-fifo-");
let runId: string;
before(async () => {
  ({ runId } = await recordSupportRun(cli.store));
});
after(() => cli.cleanup());

const trace = (...args: string[]) => runTrace(["--store", cli.store, ...args], { cwd: cli.work, timeoutMs: 20_000 });

describe("a FIFO is refused with exit 4, never waited on", () => {
  test("as run.json: show and export refuse the run; ls lists it as invalid once the catalog is rebuilt", async () => {
    const manifest = join(cli.store, "runs", runId, "run.json");
    renameSync(manifest, `${manifest}.real`);
    makeFifo(manifest);
    try {
      for (const args of [
        ["show", runId],
        ["export", runId, "-o", join(cli.work, "x.tar")],
        ["summary", runId],
      ]) {
        const r = await trace(...args);
        assert.equal(r.code, 4, `${args[0]}: ${r.stderr}`);
        assert.match(r.stderr, /run\.json is not a valid run manifest: not a regular file/);
      }
      // ls lists an ended run from the store's catalog without opening its run.json; the
      // rebuild of `recover --all` reads every run.json, and finds this one is not a file.
      const ls = await trace("--json", "ls");
      assert.equal(ls.code, 0, ls.stderr);
      assert.match(ls.stdout, /"status": "completed"/);
      const recover = await trace("recover", "--all");
      assert.equal(recover.code, 0, recover.stderr);
      const rebuilt = await trace("--json", "ls");
      assert.equal(rebuilt.code, 0, rebuilt.stderr);
      assert.match(rebuilt.stdout, /"status": "invalid"/);
    } finally {
      rmSync(manifest);
      renameSync(`${manifest}.real`, manifest);
    }
    const mended = await trace("--json", "ls");
    assert.match(mended.stdout, /"status": "completed"/, "a folder mended since is read again");
  });

  test("as the bundle named: verify, show and scrub refuse it", async () => {
    const pipe = join(cli.work, "incident.tar");
    makeFifo(pipe);
    for (const args of [
      ["verify", pipe],
      ["show", pipe],
      ["scrub", pipe, "-o", join(cli.work, "s.tar")],
    ]) {
      const r = await trace(...args);
      assert.equal(r.code, 4, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, /not a regular file|neither a bundle file nor a run directory/);
    }
  });

  test("as the journal: trace resume refuses it (journal_not_a_file)", async () => {
    const journals = join(cli.work, "journals");
    mkdirSync(journals);
    makeFifo(join(journals, "run_piped.ndjson"));
    const module = join(cli.work, "agent.mjs");
    writeFileSync(
      module,
      `import { Agent, FileDurableStore, ScriptedProvider } from ${JSON.stringify(import.meta.resolve("@harnessx/core"))};
export function createAgent() { return new Agent({ provider: new ScriptedProvider([{ text: "done" }]), durable: { store: new FileDurableStore(${JSON.stringify(journals)}) } }); }
`,
    );
    const r = await trace("resume", "run_piped", "--agent", module);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /run_piped\.ndjson is a FIFO \(named pipe\), not a regular file/);
  });
});
