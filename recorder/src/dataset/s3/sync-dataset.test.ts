import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { FlightRecorderExtension } from "../../index.js";
import { echoScript, scriptedAgent, recordRunWithArtifact } from "../../test-support/agents.js";
import { startLocalS3, S3RVER_CREDENTIALS, type LocalS3 } from "../../test-support/s3-server.js";
import { tempDir } from "../../../../test/support/system.js";
import { datasetFiles } from "./dataset-files.js";
import { syncDataset, stagingDatasetOf } from "./sync-dataset.js";

let s3: LocalS3;
const temp = tempDir("hx-s3-sync-");
before(async () => {
  s3 = await startLocalS3();
});
after(async () => {
  await s3.close();
  temp.cleanup();
});

async function recordStore(dir: string, runs: number): Promise<void> {
  await recordRunWithArtifact(dir);
  for (let i = 0; i < runs; i++) {
    const agent = scriptedAgent(echoScript(2), [new FlightRecorderExtension({ dir })]);
    await agent.run(`run ${i}`);
    await agent.close();
  }
}

/** Every key of the dataset under `prefix` whose bytes equal the staging folder's file: what a sync must leave. */
async function assertMirrors(store: string, prefix: string): Promise<string[]> {
  const staging = stagingDatasetOf(store);
  const local = (await datasetFiles(staging)).map((f) => f.path);
  const remote = (await s3.keys(`${prefix}/`)).map((k) => k.slice(prefix.length + 1));
  assert.deepEqual(remote, [...local].sort(), "the target holds exactly the staging dataset's files");
  for (const path of local)
    assert.ok((await s3.get(`${prefix}/${path}`)).equals(readFileSync(join(staging, path))), `${path} arrived whole`);
  return remote;
}

describe("syncDataset", () => {
  const connection = () => ({ endpoint: s3.endpoint, credentials: S3RVER_CREDENTIALS });

  test("uploads every ended run's tables and artifacts; a rerun uploads nothing", async () => {
    const store = join(temp.dir, "one");
    await recordStore(store, 2);
    const first = await syncDataset({ storeDir: store, to: `s3://${s3.bucket}/one`, connection: connection() });
    assert.equal(first.exportedRuns, 3);
    assert.deepEqual(first.failed, []);
    const keys = await assertMirrors(store, "one");
    assert.equal(keys.filter((k) => k.startsWith("runs/")).length, 3);
    assert.ok(
      keys.some((k) => k.startsWith("objects/")),
      "the spilled artifact went as an object",
    );
    const again = await syncDataset({ storeDir: store, to: `s3://${s3.bucket}/one`, connection: connection() });
    assert.deepEqual([again.exportedRuns, again.uploaded, again.skipped], [0, 0, first.uploaded]);
  });

  test("a run still being recorded is not uploaded; once it ends the next sync sends it", async () => {
    const store = join(temp.dir, "live");
    await recordStore(store, 1);
    let release!: () => void;
    let started!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inTool = new Promise<void>((resolve) => (started = resolve));
    const wait = tool({
      name: "wait",
      description: "waits",
      execute: () => {
        started();
        return gate.then(() => "ok");
      },
    });
    const recorder = new FlightRecorderExtension({ dir: store });
    const agent = new Agent({
      provider: new ScriptedProvider([{ toolCalls: [{ name: "wait", input: {} }] }, { text: "done" }]),
      tools: [wait],
      extensions: [recorder],
    });
    const running = agent.run("long");
    await inTool;
    await recorder.flush();
    const during = await syncDataset({ storeDir: store, to: `s3://${s3.bucket}/live`, connection: connection() });
    const liveRun = recorder.lastRun!;
    assert.deepEqual(
      during.skippedRuns.map((r) => [r.runId, r.reason]),
      [[liveRun, "recording"]],
    );
    assert.ok(!(await s3.keys("live/")).some((k) => k.includes(liveRun)), "nothing of the live run reached the target");
    release();
    await running;
    await agent.close();
    const later = await syncDataset({ storeDir: store, to: `s3://${s3.bucket}/live`, connection: connection() });
    assert.deepEqual(later.skippedRuns, []);
    assert.ok(
      (await assertMirrors(store, "live")).some(
        (k) => k === `runs/date=${new Date().toISOString().slice(0, 10)}/${liveRun}.parquet`,
      ),
    );
  });

  test("a sync killed mid-way resumes: nothing lost, nothing sent twice", async () => {
    const store = join(temp.dir, "killed");
    await recordStore(store, 4);
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        new URL("../../test-support/sync-child.ts", import.meta.url).pathname,
        store,
        `s3://${s3.bucket}/killed`,
        s3.endpoint,
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, ...s3.env },
      },
    );
    let uploadedBeforeKill = 0;
    for await (const line of createInterface({ input: child.stdout! })) {
      if (line.startsWith("uploaded ")) uploadedBeforeKill++;
      if (uploadedBeforeKill === 5) break;
    }
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const total = (await datasetFiles(stagingDatasetOf(store))).length;
    assert.ok(uploadedBeforeKill < total, "the child was killed before it finished");
    const resumed = await syncDataset({ storeDir: store, to: `s3://${s3.bucket}/killed`, connection: connection() });
    assert.deepEqual(resumed.failed, []);
    // What the child recorded is skipped from the manifest; an upload it finished but had no time to record is found by digest.
    assert.equal(resumed.uploaded + resumed.skipped, total);
    assert.ok(
      resumed.skipped >= uploadedBeforeKill && resumed.uploaded <= total - uploadedBeforeKill,
      "nothing the child sent is sent again",
    );
    await assertMirrors(store, "killed");
  });
});
