import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, runTrace } from "@harnessx/cli/test-support";

let work: string;
let home: string;
let project: string;
let guard: string;
let marker: string;
let cleanup: () => void;

const trace = (...args: string[]) => runTrace(args, { cwd: project, env: { HARNESSX_HOME: home } });
const json = <T>(text: string): T => JSON.parse(text) as T;
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

before(() => {
  const temp = tempDir("trace-trust-");
  cleanup = temp.cleanup;
  work = realpathSync(temp.dir);
  home = join(work, "home");
  project = join(work, "project");
  marker = join(work, "imported");
  mkdirSync(join(project, ".harnessx", "extensions"), { recursive: true });
  mkdirSync(join(home, "extensions"), { recursive: true });
  // Imported, this file would leave a marker: `trace trust` must list it by name only.
  guard = join(project, ".harnessx", "extensions", "guard.ts");
  writeFileSync(
    guard,
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "yes");\nexport default { name: "guard", install() {} };\n`,
  );
  writeFileSync(join(home, "extensions", "audit.js"), `export default (hx) => {};\n`);
});
after(() => cleanup());

describe("trace trust", () => {
  test("trusts the current folder and prints what would load, with levels, without importing it", async () => {
    const r = await trace("trust");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^trusted ${literal(project)}\n`));
    assert.match(r.stdout, /^LEVEL\s+FILE$/m);
    assert.match(r.stdout, new RegExp(`^user\\s+${literal(join(home, "extensions", "audit.js"))}$`, "m"));
    assert.match(r.stdout, new RegExp(`^project\\s+${literal(guard)}$`, "m"));
    assert.equal(existsSync(marker), false, "a project file was imported");
    const trustFile = json<{ format: string; version: number; projects: Record<string, { digest: string }> }>(
      readFileSync(join(home, "trust.json"), "utf8"),
    );
    assert.equal(trustFile.format, "harnessx.trust");
    assert.deepEqual(Object.keys(trustFile.projects), [project]);
  });

  test("--json gives the record and the files that would load", async () => {
    const r = await trace("--json", "trust", project);
    assert.equal(r.code, 0, r.stderr);
    const out = json<{
      dir: string;
      digest: string;
      trustedAt: string;
      load: Array<{ path: string; level: string }>;
      skipped: unknown[];
    }>(r.stdout);
    assert.equal(out.dir, project);
    assert.match(out.digest, /^[0-9a-f]{64}$/);
    assert.ok(!Number.isNaN(Date.parse(out.trustedAt)));
    assert.deepEqual(out.load, [
      { path: join(home, "extensions", "audit.js"), level: "user" },
      { path: guard, level: "project" },
    ]);
    assert.deepEqual(out.skipped, []);
  });

  test("--list shows the project trusted, then changed since trusted after an edit", async () => {
    const listed = async () =>
      json<Array<{ dir: string; status: string }>>((await trace("--json", "trust", "--list")).stdout);
    assert.deepEqual(
      (await listed()).map((p) => [p.dir, p.status]),
      [[project, "trusted"]],
    );
    appendFileSync(guard, "// edited\n");
    assert.deepEqual(
      (await listed()).map((p) => p.status),
      ["changed since trusted"],
    );
    const table = await trace("trust", "--list");
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^DIR\s+STATUS\s+TRUSTED AT\s+DIGEST$/m);
    assert.match(table.stdout, new RegExp(`^${literal(project)}\\s+changed since trusted\\s`, "m"));
  });

  test("--revoke forgets the project; a second revoke says it was not trusted", async () => {
    const r = await trace("trust", "--revoke", ".");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^revoked trust in /);
    assert.deepEqual(json<unknown[]>((await trace("--json", "trust", "--list")).stdout), []);
    const again = await trace("--json", "trust", "--revoke");
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(json<unknown>(again.stdout), { dir: project, revoked: false });
  });

  test("a folder that does not exist is one line and exit 3; a file is exit 4; nothing is trusted", async () => {
    for (const [args, code, message] of [
      [["trust", "no-such-dir"], 3, /^trace: no such folder: .*no-such-dir$/],
      [["trust", "--revoke", "no-such-dir"], 3, /^trace: no such folder, and no trust record for it: .*no-such-dir$/],
      [["trust", guard], 4, /^trace: not a folder: /],
      [["trust", "--list", "."], 2, /^trace: --list takes no folder/],
    ] as const) {
      const r = await trace(...args);
      assert.equal(r.code, code, `trace ${args.join(" ")}: ${r.stderr}`);
      assert.deepEqual(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.match(r.stderr.trim(), message);
    }
    assert.deepEqual(json<unknown[]>((await trace("--json", "trust", "--list")).stdout), []);
  });

  test("a malformed trust file is one line naming it, exit 4", async () => {
    writeFileSync(join(home, "trust.json"), "{ not json");
    const r = await trace("trust", "--list");
    assert.equal(r.code, 4);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`^trace: trust file ${literal(join(home, "trust.json"))}: not valid JSON`));
  });
});
