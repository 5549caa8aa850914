// The catalog's background compaction as an installed app runs it: the recorder's built files,
// where it runs on a worker thread (a test from the sources runs it on the calling thread).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "hx-catalog-worker-"));
after(() => rmSync(work, { recursive: true, force: true }));

describe("compactInBackground from the built recorder", () => {
  test("compacts the catalog on a worker thread and resolves with its result", () => {
    const script = `
      import { Agent, FlightRecorderExtension, ScriptedProvider } from "harnessx";
      import { compactInBackground, RecordingStore } from "@harnessx/recorder";
      const dir = ${JSON.stringify(join(work, "store"))};
      const agent = new Agent({
        provider: new ScriptedProvider([{ text: "one" }, { text: "two" }, { text: "three" }]),
        extensions: [new FlightRecorderExtension({ dir })],
      });
      for (const input of ["a", "b", "c"]) await agent.run(input);
      await agent.close();
      const result = await compactInBackground(dir);
      const listed = (await new RecordingStore(dir).listRuns({ limit: 2 })).length;
      console.log(JSON.stringify({ result, listed }));`;
    // As a published install loads it: the built files, without the test runner's source condition.
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: join(root, "test"),
      env: { ...process.env, NODE_OPTIONS: "" },
      encoding: "utf8",
    });
    const { result, listed } = JSON.parse(out.trim().split("\n").at(-1)!) as { result: unknown; listed: number };
    assert.deepEqual(result, { done: true, runs: 3, foldedLogs: 1 });
    assert.equal(listed, 2);
    assert.deepEqual(readdirSync(join(work, "store", "catalog")).sort(), ["log-000002.ndjson", "snapshot.ndjson"]);
  });
});
