// A store holding folders that are not runs (garbage, half-written, foreign): `trace ls` lists
// them as invalid with the reason, never prints `undefined`, and the good run is still listed.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { recordSupportRun, tempDir, runTrace } from "@harnessx/cli/test-support";

let store: string;
let cleanup: () => void;
let good: string;

const GARBAGE: Record<string, string | undefined> = {
  run_notjson: "{ this is not json",
  run_empty_object: "{}",
  run_array: "[1,2]",
  run_bad_status: JSON.stringify({
    runId: "run_bad_status",
    status: "exploded",
    agent: "a",
    sessionId: "s",
    models: [],
    startedAt: 1,
    endedAt: null,
  }),
  run_no_manifest: undefined,
};

before(async () => {
  const temp = tempDir();
  cleanup = temp.cleanup;
  store = join(temp.dir, ".harnessx");
  good = (await recordSupportRun(store)).runId;
  for (const [name, text] of Object.entries(GARBAGE)) {
    mkdirSync(join(store, "runs", name, "segments"), { recursive: true });
    if (text !== undefined) writeFileSync(join(store, "runs", name, "run.json"), text);
  }
  writeFileSync(join(store, "runs", "stray-file.txt"), "not a folder");
});
after(() => cleanup());

describe("trace ls on a store with garbage run folders", () => {
  test("--json lists each as invalid with its reason; the good run is listed as before", async () => {
    const r = await runTrace(["--store", store, "--json", "ls"]);
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<{ runId: string; status: string; problem?: string }>;
    assert.equal(rows[0]!.runId, good);
    assert.equal(rows[0]!.status, "completed");
    const invalid = Object.fromEntries(rows.filter((x) => x.status === "invalid").map((x) => [x.runId, x.problem]));
    assert.deepEqual(Object.keys(invalid).sort(), [...Object.keys(GARBAGE), "stray-file.txt"].sort());
    assert.match(invalid.run_notjson!, /not valid JSON/);
    assert.match(invalid.run_empty_object!, /runId is missing/);
    assert.match(invalid.run_array!, /must be an object/);
    assert.match(invalid.run_bad_status!, /status must be one of running, completed/);
    assert.match(invalid.run_no_manifest!, /has no run\.json/);
    assert.equal(r.stdout.includes("undefined"), false);
  });
  test("the table shows status invalid, never undefined, with one note per folder", async () => {
    const r = await runTrace(["--store", store, "ls"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.includes("undefined"), false, r.stdout);
    assert.match(r.stdout, /run_empty_object\s+-\s+invalid/);
    assert.match(r.stderr, /run_bad_status: .*status must be one of/);
    const only = await runTrace(["--store", store, "--json", "ls", "--status", "invalid"]);
    assert.equal((JSON.parse(only.stdout) as unknown[]).length, Object.keys(GARBAGE).length + 1);
  });
});
