// The incident workflow on the demo's own recordings: the CLI reads them, replays them exactly, verifies the bundle,
// and the README's walkthrough ("When a run goes wrong") runs as written on them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { runDemo } from "@harnessx/examples/demo";

const root = new URL("../..", import.meta.url).pathname;
const bin = join(root, "cli", "dist", "bin.js");
/** The folder the demo runs in, as a user's would be: the store is its `.harnessx`. */
let work = "";
let store = "";
let runId = "";
let failedId = "";
let bundle = "";

function trace(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args, "--store", store], {
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
}

/** The commands of the README's "When a run goes wrong", one per line, as printed there. */
function walkthrough(): string[] {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.split("\n## When a run goes wrong\n")[1]?.split("\n## ")[0] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(block, "the section has its sh block");
  return block[1].trim().split("\n");
}

describe("trace on the demo's recordings", () => {
  before(async () => {
    work = mkdtempSync(join(tmpdir(), "harnessx-demo-trace-"));
    store = join(work, ".harnessx");
    const outcome = await runDemo({ dir: store, write: () => {}, env: {} });
    runId = outcome.result.runId;
    failedId = outcome.failed.runId;
    bundle = outcome.bundlePath;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test("ls --json lists the demo's two runs, newest first: the failing one, then the main one", () => {
    const out = trace("ls", "--json");
    assert.equal(out.status, 0, out.stderr);
    const runs = JSON.parse(out.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(
      runs.map((r) => [r.runId, r.status]),
      [
        [failedId, "failed"],
        [runId, "completed"],
      ],
    );
    const failed = trace("ls", "--status", "failed", "--json");
    assert.deepEqual(
      (JSON.parse(failed.stdout) as Array<{ runId: string }>).map((r) => r.runId),
      [failedId],
    );
  });

  test("replay reproduces the recorded demo run exactly (spilled result included)", () => {
    const out = trace("replay", runId.slice(0, 14));
    assert.equal(out.status, 0, out.stdout + out.stderr);
    assert.match(out.stdout, /reproduced run .*: 5\/5 model calls matched/);
  });

  test("the demo's bundle verifies and replays too", () => {
    assert.equal(trace("verify", bundle).status, 0);
    const out = trace("replay", bundle, "--json");
    assert.equal(out.status, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).reproduced, true);
  });

  test("query answers over the recording: the spilled tool and the SQL read of it", () => {
    const out = trace("query", runId, "SELECT name FROM spans WHERE kind = 'tool' ORDER BY name", "--json");
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(
      (JSON.parse(out.stdout) as Array<{ name: string }>).map((r) => r.name),
      [
        "execute_tool charge_card",
        "execute_tool export_sales",
        "execute_tool get_weather",
        "execute_tool load_skill",
        "execute_tool mcp__shipping__track_order",
        "execute_tool read_result",
        "execute_tool search_orders",
      ],
    );
  });

  test("the README's walkthrough runs as written: each command succeeds and prints something", () => {
    const lines = walkthrough();
    assert.ok(lines.length >= 8, lines.join("\n"));
    // `npx trace` is the built CLI here (npx would look for it in this temporary folder's node_modules).
    const shell = `npx() { "$@"; }; trace() { ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} "$@"; }`;
    // As a user runs them: from the folder holding .harnessx (found like git finds its repository), no display, no store variable.
    const env = {
      ...process.env,
      NO_COLOR: "1",
      HARNESSX_DIR: "",
      HARNESSX_STORE: "",
      DISPLAY: "",
      WAYLAND_DISPLAY: "",
    };
    for (const line of lines) {
      assert.match(line, /^npx trace /, "a trace command");
      assert.doesNotMatch(line, /run_[0-9a-z]{4}\b/, "no placeholder run ids");
      const r = spawnSync("bash", ["-c", `${shell}; ${line}`], { cwd: work, env, encoding: "utf8", timeout: 120_000 });
      // diff answers "do they differ?": exit 1 is its yes, for a good run against a failed one.
      const expected = /^npx trace diff /.test(line) ? 1 : 0;
      assert.equal(r.status, expected, `${line}\n${r.stdout}\n${r.stderr}`);
      assert.notEqual(r.stdout.trim(), "", `${line} printed nothing`);
      const said = {
        show: /card declined/,
        open: `${failedId}.html`,
        replay: `reproduced run ${failedId}`,
        export: failedId,
      }[line.split(" ")[2]];
      if (said)
        assert.ok(
          typeof said === "string" ? r.stdout.includes(said) : said.test(r.stdout),
          `${line} works on the failing run:\n${r.stdout}`,
        );
    }
  });
});
