// Background compaction into partitions as an installed app runs it: the recorder's built files,
// where it runs on a worker thread (a test from the sources runs it on the calling thread).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "hx-parts-worker-"));
after(() => rmSync(work, { recursive: true, force: true }));

describe("the recorder's background compaction from its built files", () => {
  test("compacts on a worker thread after afterRuns runs; close() waits; the store reads each run once", () => {
    const script = `
      import { Agent, FlightRecorderExtension, ScriptedProvider } from "harnessx";
      import { openStoreTables } from "@harnessx/recorder";
      const dir = ${JSON.stringify(join(work, "store"))};
      const agent = new Agent({
        provider: new ScriptedProvider([{ text: "one" }, { text: "two" }, { text: "three" }]),
        extensions: [new FlightRecorderExtension({ dir, compact: { afterRuns: 3, minIntervalMs: 0 } })],
      });
      for (const input of ["a", "b", "c"]) await agent.run(input);
      await agent.close();
      const tables = await openStoreTables(dir, { readOnly: true });
      const [row] = await tables.query("SELECT count(*)::INTEGER AS runs, (SELECT count(*)::INTEGER FROM hx_part_runs) AS compacted FROM runs");
      tables.close();
      console.log(JSON.stringify(row));`;
    // As a published install loads it: the built files, without the test runner's source condition.
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: join(root, "test"),
      env: { ...process.env, NODE_OPTIONS: "" },
      encoding: "utf8",
    });
    assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)!), { runs: 3, compacted: 3 });
  });
});
