// What a user gets from npm: every publishable package packed as `npm pack` makes it, linted
// (publint, Are the Types Wrong), installed into a fresh app outside the repository, and the
// README's quickstart run there as plain ESM JavaScript and as TypeScript (nodenext), then
// `npx trace` on what it recorded.
import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

const root = new URL("../..", import.meta.url).pathname;

/** The workspaces that are published: every one not marked private. */
function publishedWorkspaces(): string[] {
  const workspaces = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { workspaces: string[] }).workspaces;
  return workspaces.filter((dir) => !(JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as { private?: boolean }).private);
}

/** The first ts block of a Markdown page's section (its `## heading`). */
function snippet(page: string, heading: string): string {
  const text = readFileSync(join(root, page), "utf8");
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `${page} has a section "${heading}"`);
  const end = text.indexOf("\n## ", start + 1);
  const block = /```ts\n([\s\S]*?)```/.exec(text.slice(start, end < 0 ? undefined : end));
  assert.ok(block, `${page}'s section "${heading}" has a ts block`);
  return block[1];
}

/** The README's quickstart. */
const readmeQuickstart = (): string => snippet("README.md", "In your app");

/** `name@version` as the repository has it installed: the app gets the versions CI checked. */
function installed(name: string): string {
  return `${name}@${(JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version}`;
}

/** The optional peers `harnessx/otel-setup` needs, which an app that exports spans installs. */
const OTEL_PEERS = ["@opentelemetry/sdk-node", "@opentelemetry/sdk-trace-base", "@opentelemetry/resources", "@opentelemetry/core", "@opentelemetry/otlp-exporter-base", "@opentelemetry/otlp-transformer"];

/** The environment of a user's shell: none of the npm settings or harnessx folders of this test run. */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_|^HARNESSX_|^NODE_OPTIONS$|^INIT_CWD$/i.test(key)));
  return { ...env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", LANGSMITH_API_KEY: "", OTEL_EXPORTER_OTLP_ENDPOINT: "" };
}

function run(command: string, args: string[], cwd: string, timeout = 300_000): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout, env: userEnv() });
  assert.equal(result.status, 0, `${command} ${args.join(" ")} failed in ${cwd}:\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`);
  return result;
}

describe("the packed packages, installed in a fresh app", { timeout: 900_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), "harnessx-packed-"));
  const packs = join(work, "packs");
  const app = join(work, "app");
  let tarballs: string[] = [];

  before(() => {
    mkdirSync(packs);
    mkdirSync(app);
    const packed = run("npm", ["pack", "--json", "--pack-destination", packs, ...publishedWorkspaces().flatMap((dir) => ["-w", dir])], root);
    tarballs = (JSON.parse(packed.stdout) as Array<{ filename: string }>).map((p) => join(packs, p.filename));
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "my-agent-app", private: true, type: "module" }, null, 2));
    // The packages depend on one another by version: installing every tarball at once satisfies them from the app's top level.
    run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ...tarballs, installed("@types/node"), ...OTEL_PEERS.map(installed)], app, 600_000);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test("every tarball passes publint and Are the Types Wrong (ESM only)", async () => {
    assert.ok(tarballs.length >= 9, `packed ${tarballs.length} packages`);
    for (const tarball of tarballs) {
      const bytes = readFileSync(tarball);
      const { messages, pkg } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }, level: "warning", strict: true });
      assert.deepEqual(messages.map((m) => formatMessage(m, pkg)), [], `publint on ${tarball}`);
      // ./test-support is the repository's own (the `harnessx-source` condition, not published).
      const attw = [join(root, "node_modules/@arethetypeswrong/cli/dist/index.js"), tarball, "--profile", "esm-only", "--format", "ascii", "--exclude-entrypoints", "./test-support"];
      run(process.execPath, attw, work);
    }
  });

  test("the README quickstart runs as plain ESM JavaScript and records a run", () => {
    writeFileSync(join(app, "quickstart.mjs"), readmeQuickstart());
    const out = run(process.execPath, ["quickstart.mjs"], app, 120_000);
    assert.match(out.stdout, /^completed run_\w+/m);
  });

  test("the README quickstart type-checks and runs as TypeScript with nodenext resolution", () => {
    mkdirSync(join(app, "src"), { recursive: true });
    writeFileSync(join(app, "src", "quickstart.ts"), readmeQuickstart());
    const compilerOptions = { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, outDir: "dist", rootDir: "src", types: ["node"] };
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }, null, 2));
    run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], app);
    const out = run(process.execPath, [join("dist", "quickstart.js")], app, 120_000);
    assert.match(out.stdout, /^completed run_\w+/m);
  });

  test("a traced run: the OpenTelemetry recipe of docs/opentelemetry.md runs on the installed packages and their peers", () => {
    // TypeScript, compiled with the app's tsconfig (nodenext) written by the test before.
    writeFileSync(join(app, "src", "spans-in-memory.ts"), snippet("docs/opentelemetry.md", "Recipe: keep spans in memory, for tests"));
    run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], app);
    run(process.execPath, [join("dist", "spans-in-memory.js")], app, 120_000);
  });

  test("`npx trace` finds the app's recordings, from the app's folder and from below it", () => {
    const listed = run("npx", ["--no-install", "trace", "ls", "--json"], app);
    const runs = JSON.parse(listed.stdout) as Array<{ runId: string; status: string }>;
    assert.ok(runs.length >= 2, `trace ls listed ${runs.length} runs`);
    assert.ok(runs.every((r) => r.status === "completed"));
    const deeper = join(app, "src", "deeper");
    mkdirSync(deeper, { recursive: true });
    const shown = run("npx", ["--no-install", "trace", "show", runs[0].runId], deeper);
    assert.match(shown.stdout, /list_orders/);
  });

  test("the README's trace commands after the quickstart run as written, from a folder below the app", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## In your app"), readme.indexOf("\n## ", readme.indexOf("## In your app") + 1));
    const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split("\n")).filter((line) => line.startsWith("npx trace"));
    assert.ok(commands.length >= 3, `the section shows ${commands.length} trace commands`);
    for (const command of commands) {
      const out = run("bash", ["-c", command], join(app, "src", "deeper"));
      assert.notEqual(out.stdout.trim(), "", `${command} printed nothing`);
    }
  });
});
