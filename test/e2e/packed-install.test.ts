// What a user gets from npm: every publishable package packed as `npm pack` makes it, linted
// (publint, Are the Types Wrong), `harnessx` installed from them into a fresh app outside the
// repository without any optional peer, and the README's quickstart run there as plain ESM
// JavaScript and as TypeScript (nodenext), then `npx trace` on what it recorded; then the
// OpenTelemetry peers installed and a traced recipe run.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import {
  OTEL_PEERS,
  harnessxTarballs,
  installApp,
  installed,
  packWorkspaces,
  repositoryRoot as root,
  runAsUser as run,
  userEnv,
  type Tarball,
} from "../support/packed-app.js";

/** The first ts block of a Markdown page's section (its `## heading`). */
function snippet(page: string, heading: string): string {
  const text = readFileSync(join(root, page), "utf8");
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `${page} has a section "${heading}"`);
  const end = text.indexOf("\n## ", start + 1);
  const block = /```ts\n([\s\S]*?)```/.exec(text.slice(start, end < 0 ? undefined : end));
  assert.ok(block, `${page}'s section "${heading}" has a ts block`);
  return block[1] ?? "";
}

/** The README's quickstart. */
const readmeQuickstart = (): string => snippet("README.md", "In your app");

/** The optional peers of the published packages: an app installs them for the features it uses. */
function optionalPeers(): string[] {
  const manifest = JSON.parse(readFileSync(join(root, "packages/harnessx/package.json"), "utf8")) as {
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };
  return Object.keys(manifest.peerDependenciesMeta).filter((name) => manifest.peerDependenciesMeta[name]?.optional);
}

describe("the packed packages, installed in a fresh app", { timeout: 900_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), "harnessx-packed-"));
  const packs = join(work, "packs");
  const app = join(work, "app");
  let packed: Tarball[] = [];
  let installOutput = "";
  const tarballs = () => packed.map((t) => t.path);

  before(() => {
    packed = packWorkspaces(packs);
    // `npm install harnessx` as the README has it: no optional peer.
    const install = installApp(app, [...harnessxTarballs(packed), installed("@types/node")]);
    installOutput = `${install.stdout}${install.stderr}`;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test("every tarball passes publint and Are the Types Wrong (ESM only)", async () => {
    assert.ok(packed.length >= 9, `packed ${packed.length} packages`);
    for (const tarball of tarballs()) {
      const bytes = readFileSync(tarball);
      const { messages, pkg } = await publint({
        pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
        level: "warning",
        strict: true,
      });
      assert.deepEqual(
        messages.map((m) => formatMessage(m, pkg)),
        [],
        `publint on ${tarball}`,
      );
      // ./test-support is the repository's own (the `harnessx-source` condition, not published).
      const attw = [
        join(root, "node_modules/@arethetypeswrong/cli/dist/index.js"),
        tarball,
        "--profile",
        "esm-only",
        "--format",
        "ascii",
        "--exclude-entrypoints",
        "./test-support",
      ];
      run(process.execPath, attw, work);
    }
  });

  test("npm warns EBADENGINE about no package of the install on this Node (CI runs 20, 22 and 24)", () => {
    assert.doesNotMatch(installOutput, /EBADENGINE/, installOutput);
  });

  test("npm installed none of the optional peers (the provider SDKs, the AWS SDK, the OpenTelemetry SDK, langsmith)", () => {
    const peers = optionalPeers();
    assert.ok(
      peers.includes("openai") && peers.includes("@aws-sdk/client-s3") && peers.includes("langsmith"),
      peers.join(", "),
    );
    assert.deepEqual(
      peers.filter((name) => existsSync(join(app, "node_modules", name))),
      [],
    );
  });

  test("the README quickstart runs as plain ESM JavaScript and records a run", () => {
    writeFileSync(join(app, "quickstart.mjs"), readmeQuickstart());
    const out = run(process.execPath, ["quickstart.mjs"], app, 120_000);
    assert.match(out.stdout, /^completed run_\w+/m);
  });

  test("the README quickstart type-checks and runs as TypeScript with nodenext resolution", () => {
    mkdirSync(join(app, "src"), { recursive: true });
    writeFileSync(join(app, "src", "quickstart.ts"), readmeQuickstart());
    const compilerOptions = {
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "es2022",
      strict: true,
      outDir: "dist",
      rootDir: "src",
      types: ["node"],
    };
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }, null, 2));
    run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], app);
    const out = run(process.execPath, [join("dist", "quickstart.js")], app, 120_000);
    assert.match(out.stdout, /^completed run_\w+/m);
  });

  test("`npx trace` finds the app's recordings, from the app's folder and from below it", () => {
    const listed = run("npx", ["--no-install", "trace", "ls", "--json"], app);
    const runs = JSON.parse(listed.stdout) as Array<{ runId: string; status: string }>;
    assert.ok(runs.length >= 2, `trace ls listed ${runs.length} runs`);
    assert.ok(runs.every((r) => r.status === "completed"));
    const deeper = join(app, "src", "deeper");
    mkdirSync(deeper, { recursive: true });
    const shown = run("npx", ["--no-install", "trace", "show", runs[0]!.runId], deeper);
    assert.match(shown.stdout, /list_orders/);
  });

  test("the README's trace commands after the quickstart run as written, from a folder below the app", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const section = readme.slice(
      readme.indexOf("## In your app"),
      readme.indexOf("\n## ", readme.indexOf("## In your app") + 1),
    );
    const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap((m) => (m[1] ?? "").split("\n"))
      .filter((line) => line.startsWith("npx trace"));
    assert.ok(commands.length >= 3, `the section shows ${commands.length} trace commands`);
    for (const command of commands) {
      const out = run("bash", ["-c", command], join(app, "src", "deeper"));
      assert.notEqual(out.stdout.trim(), "", `${command} printed nothing`);
    }
  });
  test("without the peers, a provider and `trace convert` say which package to install", () => {
    const script = `import { OpenAIProvider } from "harnessx";
const provider = new OpenAIProvider({ apiKey: "sk-unused" });
await provider.complete({ system: "", messages: [], tools: [], maxTokens: 16 }).catch((e) => console.log(e.code, e.message));`;
    writeFileSync(join(app, "provider.mjs"), script);
    const out = run(process.execPath, ["provider.mjs"], app);
    assert.equal(out.stdout, 'missing_package OpenAIProvider needs the "openai" package: npm install openai@^6.30.1\n');
    const converted = spawnSync("npx", ["--no-install", "trace", "convert", "last", "--to", "otlp"], {
      cwd: app,
      encoding: "utf8",
      env: userEnv(),
    });
    assert.equal(converted.status, 1, converted.stderr);
    assert.match(
      converted.stderr,
      /^trace: trace convert needs the "@opentelemetry\/[a-z-]+" package: npm install @opentelemetry\/core@\S+ /,
    );
  });

  test("a traced run: the OpenTelemetry recipe of docs/opentelemetry.md runs once its peers are installed", () => {
    run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ...OTEL_PEERS.map(installed)], app, 600_000);
    // TypeScript, compiled with the app's tsconfig (nodenext) written by the test before.
    writeFileSync(
      join(app, "src", "spans-in-memory.ts"),
      snippet("docs/opentelemetry.md", "Recipe: keep spans in memory, for tests"),
    );
    run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], app);
    run(process.execPath, [join("dist", "spans-in-memory.js")], app, 120_000);
  });
});
