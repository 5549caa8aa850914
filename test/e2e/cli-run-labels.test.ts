// Finding the run a customer complained about: `agent.run(input, { metadata, tags })` labels a
// run; `trace ls --tag` and `--where key=value` find it in a store and in a dataset, and
// `trace query` sees the labels as columns of `runs`.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Agent, FlightRecorderExtension, ScriptedProvider } from "harnessx";
import { cliWorkspace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-labels-");
let complained: string;
let other: string;

before(async () => {
  const agent = new Agent({
    provider: new ScriptedProvider([{ text: "Refunded." }, { text: "Shipped." }, { text: "Hello." }]),
    name: "support",
    extensions: [new FlightRecorderExtension({ dir: cli.store })],
    metadata: { env: "prod" },
  });
  complained = (await agent.run("refund me", { metadata: { "user.id": "u_42", ticket: 981 }, tags: ["vip"] })).runId;
  other = (await agent.run("where is it", { metadata: { "user.id": "u_7" }, tags: ["trial"] })).runId;
  await agent.run("hi");
  await agent.close();
});
after(() => cli.cleanup());

async function listed(...args: string[]): Promise<string[]> {
  const r = await cli.trace("--json", "ls", ...args);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { runId?: string; run_id?: string }[]).map((x) => x.runId ?? x.run_id ?? "");
}

describe("trace ls --tag and --where", () => {
  test("a tag, a metadata value (a number compared as text), and both at once find the run", async () => {
    assert.deepEqual(await listed("--tag", "vip"), [complained]);
    assert.deepEqual(await listed("--where", "ticket=981"), [complained]);
    assert.deepEqual(await listed("--where", "user.id=u_7", "--tag", "trial"), [other]);
    assert.deepEqual(await listed("--where", "user.id=u_7", "--tag", "vip"), []);
    assert.equal((await listed("--where", "env=prod")).length, 3);
    assert.deepEqual(await listed("--where", "ticket=98"), []);
  });

  test("the table shows the tags; a malformed --where is a usage error", async () => {
    const table = await cli.trace("ls", "--tag", "vip");
    assert.match(table.stdout, /TAGS/);
    assert.match(table.stdout, /\bvip\b/);
    const bad = await cli.trace("ls", "--where", "ticket");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--where takes key=value/);
    const none = await cli.trace("ls", "--tag", "nobody");
    assert.equal(none.code, 0);
    assert.match(none.stderr, /no runs match the filters/);
  });

  test("trace query sees them as columns of runs", async () => {
    const r = await cli.trace(
      "--json",
      "query",
      "--all",
      "SELECT run_id, metadata->>'user.id' AS user_id FROM runs WHERE list_contains(tags, 'vip')",
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [{ run_id: complained, user_id: "u_42" }]);
  });

  test("a dataset is filtered the same way", async () => {
    const dataset = join(cli.work, "fleet");
    const exported = await cli.trace("export", "--format", "parquet", "--all", "--out", dataset);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(await listed("--dataset", dataset, "--tag", "vip"), [complained]);
    assert.deepEqual(await listed("--dataset", dataset, "--where", "ticket=981"), [complained]);
    assert.deepEqual(await listed("--dataset", dataset, "--where", "user.id=u_7", "--tag", "vip"), []);
  });
});
