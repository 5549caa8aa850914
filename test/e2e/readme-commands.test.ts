// The README's two commands are the contract with a new user: check they are the ones
// documented and that the demo command works as written.
import assert from "node:assert/strict";
import { execSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";

const root = new URL("../..", import.meta.url).pathname;
const readme = readFileSync(join(root, "README.md"), "utf8");
const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trim());

describe("README commands", () => {
  test("the README gives exactly the demo command and the test command", () => {
    assert.deepEqual(commands.slice(0, 2), ["npm install && npm run demo", "npm test"]);
  });

  test("`npm run demo` succeeds and reports the run", () => {
    const run = spawnSync("npm", ["run", "--silent", "demo"], {
      cwd: root,
      encoding: "utf8",
      timeout: 300_000,
      env: { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANTHROPIC_API_KEY: "" },
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /status: completed/);
  });

  // A fresh clone plus `npm install` needs the registry and a minute or two: opt in with HARNESSX_CLONE_TEST=1 (CI runs it).
  test("a fresh clone runs the demo command", {
    skip: process.env.HARNESSX_CLONE_TEST !== "1" && "set HARNESSX_CLONE_TEST=1 to clone and install from scratch",
  }, () => {
    const dir = mkdtempSync(join(tmpdir(), "harnessx-clone-"));
    try {
      execSync(`git clone -q ${JSON.stringify(root)} ${JSON.stringify(dir)}`);
      const run = spawnSync("bash", ["-c", commands[0]], {
        cwd: dir,
        encoding: "utf8",
        timeout: 900_000,
        env: { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANTHROPIC_API_KEY: "" },
      });
      assert.equal(run.status, 0, run.stderr.slice(-4000));
      assert.match(run.stdout, /status: completed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
