// A store or a bundle may come from anyone (a store is found by walking up from the working
// folder, so a cloned repository can carry one): the redaction patterns its run.json names are
// never compiled. Here run.json names `(a+)+$`, and the run's input, agent name and spilled
// result end in 40 a's and a "!", which that pattern takes 2^40 steps to reject. Every reader
// that redacts (export, export to Parquet, replay, scrub) must finish: each runs in a child with
// a generous limit (a hang is a kill, exit code null), never a timing.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  Agent,
  ArtifactStore,
  FlightRecorderExtension,
  ResultSpillExtension,
  ScriptedProvider,
  runDirOf,
  tool,
} from "harnessx";
import { cliWorkspace, runTrace, type CliRun } from "@harnessx/cli/test-support";
import { membersOf, reseal, withMember, writeTar } from "@harnessx/recorder/test-support";

const cli = cliWorkspace("hx-patterns-");
const BAIT = `${"a".repeat(40)}!`;
const EVIL = { name: "evil", source: "(a+)+$" };
/** Far above what each command takes (a few seconds on a loaded machine), far below 2^40 steps. */
const LIMIT_MS = 90_000;

let spilledRun: string;
let plainRun: string;
let hostileBundle: string;

/** run.json naming the catastrophic pattern, with the bait as the agent's name. */
function hostileRunJson(original: Buffer): Buffer {
  const run = JSON.parse(original.toString("utf8")) as { agent: string; redaction: { patterns: unknown[] } };
  run.redaction.patterns.push(EVIL);
  run.agent = BAIT;
  return Buffer.from(JSON.stringify(run, null, 2));
}

const trace = (...args: string[]): Promise<CliRun> =>
  runTrace(["--store", cli.store, ...args], { cwd: cli.work, timeoutMs: LIMIT_MS });

function finished(r: CliRun, what: string): void {
  assert.notEqual(r.code, null, `${what} was still running after ${LIMIT_MS / 1000} s: the recording's pattern ran`);
  assert.equal(r.code, 0, `${what}: exit ${r.code} ${r.stderr}`);
}

/** A run whose input and tool result end in the bait; with `spill`, the result is spilled to the store. */
async function record(spill: boolean): Promise<string> {
  const dump = tool({
    name: "dump",
    description: "dumps the log",
    execute: () => `${"log line\n".repeat(400)}${BAIT}`,
  });
  const agent = new Agent({
    provider: new ScriptedProvider([{ toolCalls: [{ id: "c1", name: "dump", input: {} }] }, { text: "done" }]),
    tools: [dump],
    extensions: [
      new FlightRecorderExtension({ dir: cli.store }),
      ...(spill ? [new ResultSpillExtension({ thresholdBytes: 1000, store: new ArtifactStore(cli.store) })] : []),
    ],
  });
  try {
    return (await agent.run(BAIT)).runId;
  } finally {
    await agent.close();
  }
}

before(async () => {
  spilledRun = await record(true);
  // Replayed without spilling: read_result's definition holds words ending in "a", which the
  // pattern rewrites quickly (a divergence), before the comparison reaches the bait.
  plainRun = await record(false);
  // A bundle of the run as exported, then its run.json swapped for the hostile one (an unsigned forgery).
  const clean = join(cli.work, "clean.tar");
  assert.equal((await trace("export", plainRun, "-o", clean)).code, 0);
  const members = await membersOf(clean);
  hostileBundle = join(cli.work, "hostile.tar");
  await writeTar(
    hostileBundle,
    reseal(withMember(members, "run.json", hostileRunJson(members.find((m) => m.name === "run.json")!.data))),
  );
  // And the store's own run.json files, as a cloned repository's store could hold them.
  for (const runId of [spilledRun, plainRun]) {
    const runJson = join(runDirOf(cli.store, runId), "run.json");
    writeFileSync(runJson, hostileRunJson(readFileSync(runJson)));
  }
});
after(() => cli.cleanup());

describe("a run.json naming a catastrophic pattern: every reader finishes, none compiles it", () => {
  test("trace export of the store's run", async () => {
    const r = await trace("--json", "export", spilledRun, "-o", join(cli.work, "exported.tar"));
    finished(r, "trace export");
    const result = JSON.parse(r.stdout) as { unappliedPatterns: string[]; spills: { count: number } };
    assert.equal(result.spills.count, 1, "the spilled result was redacted on the way out");
    assert.deepEqual(result.unappliedPatterns, ["evil"], "the export says which recorded pattern it did not apply");
  });

  test("trace export --format parquet of the store (spilled results are redacted on the way out)", async () => {
    finished(
      await trace("export", "--format", "parquet", "--all", "--out", join(cli.work, "dataset")),
      "trace export --format parquet",
    );
  });

  test("trace replay of the bundle and of the store's run", async () => {
    for (const target of [hostileBundle, plainRun]) {
      const r = await trace("--json", "replay", target);
      finished(r, `trace replay ${target}`);
      assert.deepEqual((JSON.parse(r.stdout) as { unappliedPatterns: string[] }).unappliedPatterns, ["evil"]);
    }
  });

  test("trace scrub of the bundle", async () => {
    finished(await trace("scrub", hostileBundle, "-o", join(cli.work, "scrubbed.tar")), "trace scrub");
  });

  test("a redaction description of the wrong shape, which readers print, is refused (exit 4), not a crash", async () => {
    const members = await membersOf(hostileBundle);
    const run = JSON.parse(members.find((m) => m.name === "run.json")!.data.toString()) as Record<string, unknown>;
    const misshaped = join(cli.work, "misshaped.tar");
    await writeTar(
      misshaped,
      reseal(withMember(members, "run.json", Buffer.from(JSON.stringify({ ...run, redaction: { patterns: 5 } })))),
    );
    for (const command of [
      ["summary", misshaped],
      ["report", misshaped, "-o", join(cli.work, "r.html")],
    ]) {
      const r = await trace(...command);
      assert.equal(r.code, 4, `${command[0]}: exit ${r.code} ${r.stderr}`);
      assert.match(r.stderr, /member "run\.json" is not valid: redaction\.keys is missing/);
    }
  });
});
