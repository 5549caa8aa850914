import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { tempStore } from "./test-support/spill-harness.js";

// The query process is forked from a file next to sandbox-process: sandbox-child.js in dist/ for
// users of the built package, sandbox-child.ts (with tsx's loader) for the tests of src/.
const SCRIPT = (core: string, artifacts: string, spill: string, root: string) => `
import { Agent, ScriptedProvider, tool } from ${JSON.stringify(core)};
import { ArtifactStore } from ${JSON.stringify(artifacts)};
import { ResultSpillExtension } from ${JSON.stringify(spill)};
const rows = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, even: i % 2 === 0 })));
const last = (request) => request.messages.at(-1).content.find((b) => b.type === "tool_result").content;
const agent = new Agent({
  provider: new ScriptedProvider([
    { toolCalls: [{ name: "rows", input: {} }] },
    (request) => ({ toolCalls: [{ name: "read_result", input: { resultId: JSON.parse(last(request)).resultId, op: "query", sql: "SELECT count(*) AS n FROM result WHERE even" } }] }),
    (request) => ({ text: last(request) }),
  ]),
  tools: [tool({ name: "rows", description: "returns rows", execute: () => rows })],
  extensions: [new ResultSpillExtension({ thresholdBytes: 1000, store: new ArtifactStore(${JSON.stringify(root)}), retention: "session" })],
});
const result = await agent.run("count the even rows");
await agent.close();
process.stdout.write(result.text);
`;

/** Runs an agent that spills a table and queries it, importing the spill from `spill`, in another directory. */
function countEvenRows(spill: string, execArgv: string[] = []): unknown {
  const tmp = tempStore();
  try {
    const script = SCRIPT(
      import.meta.resolve("@harnessx/core"),
      import.meta.resolve("@harnessx/artifacts"),
      spill,
      tmp.root,
    );
    const run = spawnSync(process.execPath, [...execArgv, "--input-type=module", "-e", script], {
      cwd: tmp.root,
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout).rows;
  } finally {
    tmp.cleanup();
  }
}

describe("the query process is found wherever the package runs from", () => {
  test("from the built package (dist/, plain node, no TypeScript loader)", () => {
    const spill = import.meta.resolve("@harnessx/spill");
    assert.match(fileURLToPath(spill), /packages\/spill\/dist\/index\.js$/, "the package entry is the build");
    assert.deepEqual(countEvenRows(spill), [{ n: 1000 }]);
  });

  test("from the sources (src/, under tsx)", () => {
    assert.deepEqual(
      countEvenRows(new URL("./index.ts", import.meta.url).href, ["--import", import.meta.resolve("tsx")]),
      [{ n: 1000 }],
    );
  });
});
