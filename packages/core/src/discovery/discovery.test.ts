import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionConflictError, ExtensionLoadError, TrustStoreError } from "../errors.js";
import { defineExtension } from "../extensions/extension.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { discover, planDiscovery, type DiscoverOptions } from "./discover.js";
import { TrustStore } from "./trust-store.js";

/** The built package, for extension files that import the real `Extension` class. */
const core = JSON.stringify(import.meta.resolve("@harnessx/core"));

let root: string;
let home: string;
let project: string;
let store: TrustStore;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "hx-discovery-"));
  home = join(root, "home");
  project = join(root, "project");
  mkdirSync(project);
  store = new TrustStore(join(home, "trust.json"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const options = (extra: DiscoverOptions = {}): DiscoverOptions => ({ cwd: project, userDir: home, trustStore: store, ...extra });
const run = (extra?: DiscoverOptions) => discover(options(extra));

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}
const projectFile = (name: string, text: string) => write(join(project, ".harnessx", "extensions", name), text);
const userFile = (name: string, text: string) => write(join(home, "extensions", name), text);

/** An extension module that leaves a marker file when it is imported: proof of execution. */
function marking(name: string): { text: string; marker: string } {
  const marker = join(root, `${name}.imported`);
  return { marker, text: `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "yes");\nexport default { name: ${JSON.stringify(name)}, install() {} };\n` };
}

describe("an untrusted project's extensions are not imported", () => {
  test("they are skipped as untrusted and their code never runs", async () => {
    const guard = marking("guard");
    const path = projectFile("guard.ts", guard.text);
    const result = await run();
    assert.deepEqual(result.extensions, []);
    assert.deepEqual(result.skipped, [{ path, kind: "extension", level: "project", reason: "untrusted" }]);
    assert.equal(existsSync(guard.marker), false, "an untrusted file was imported");
  });

  test("after trust they load at level project with their file as source", async () => {
    const guard = marking("guard");
    const path = projectFile("guard.ts", guard.text);
    store.trust(project);
    const result = await run();
    assert.deepEqual(result.skipped, []);
    assert.deepEqual(result.extensions.map((e) => [e.extension.name, e.level, e.source]), [["guard", "project", path]]);
    assert.ok(existsSync(guard.marker));
  });
});

describe("trust is pinned to the content of the trusted surfaces", () => {
  for (const [what, change] of [
    ["editing a file", () => projectFile("guard.ts", `${marking("guard").text}// edited\n`)],
    ["adding a file", () => projectFile("extra.ts", marking("extra").text)],
    ["adding a helper in a sub-folder", () => projectFile("lib/helper.ts", "export const x = 1;\n")],
  ] as const) {
    test(`${what} makes the project "changed since trusted" and nothing of it is imported`, async () => {
      const guard = marking("guard");
      projectFile("guard.ts", guard.text);
      store.trust(project);
      change();
      assert.equal(store.status(project), "changed");
      assert.equal(store.isTrusted(project), false);
      const result = await run();
      assert.deepEqual(result.extensions, []);
      assert.ok(result.skipped.length >= 1 && result.skipped.every((s) => s.reason === "changed since trusted" && s.level === "project"));
      assert.equal(existsSync(guard.marker), false);
    });
  }

  test("flight recorder data under .harnessx/ does not untrust the project", async () => {
    projectFile("guard.ts", marking("guard").text);
    store.trust(project);
    write(join(project, ".harnessx", "runs", "run_1", "segment-0.jsonl"), "{}\n");
    write(join(project, ".harnessx", "artifacts", "ab", "cd"), "blob");
    write(join(project, ".harnessx", "notes.txt"), "anything outside the surfaces");
    assert.equal(store.status(project), "trusted");
    assert.equal((await run()).extensions.length, 1);
  });

  test("revoke makes the project untrusted again and reports whether it was trusted", async () => {
    projectFile("guard.ts", marking("guard").text);
    store.trust(project);
    assert.equal(store.revoke(project), true);
    assert.equal(store.revoke(project), false);
    assert.equal(store.status(project), "untrusted");
    assert.equal((await run()).skipped[0].reason, "untrusted");
  });

  test("trust survives a new store on the same file, which is private and versioned", async () => {
    projectFile("guard.ts", marking("guard").text);
    const record = store.trust(project);
    const again = new TrustStore(store.file);
    assert.equal(again.isTrusted(project), true);
    assert.deepEqual(again.list(), [record]);
    assert.equal((await run({ trustStore: again })).extensions[0].level, "project");
    const saved = JSON.parse(readFileSync(store.file, "utf8")) as { format: string; version: number; projects: Record<string, unknown> };
    assert.equal(saved.format, "harnessx.trust");
    assert.equal(saved.version, 1);
    assert.deepEqual(Object.keys(saved.projects), [record.dir]);
    assert.equal(statSync(store.file).mode & 0o777, 0o600);
  });

  test("a symlinked folder is neither digested by content nor loaded", async () => {
    const outside = join(root, "outside");
    write(join(outside, "index.ts"), marking("linked").text);
    mkdirSync(join(project, ".harnessx", "extensions"), { recursive: true });
    symlinkSync(outside, join(project, ".harnessx", "extensions", "linked"), "dir");
    store.trust(project);
    write(join(outside, "index.ts"), `${marking("linked").text}// edited\n`);
    assert.equal(store.status(project), "trusted");
    assert.deepEqual((await run()).extensions, []);
    assert.equal(existsSync(join(root, "linked.imported")), false);
  });
});

describe("a bad trust file is a typed error naming the file", () => {
  for (const [what, text, problem] of [
    ["malformed JSON", "{ not json", /not valid JSON/],
    ["another format", JSON.stringify({ format: "other", version: 1, projects: {} }), /not a harnessx trust file/],
    ["another version", JSON.stringify({ format: "harnessx.trust", version: 2, projects: {} }), /version 2 is not supported/],
    ["a malformed record", JSON.stringify({ format: "harnessx.trust", version: 1, projects: { "/p": { digest: 1 } } }), /record of \/p/],
  ] as const) {
    test(what, async () => {
      write(store.file, text);
      projectFile("guard.ts", marking("guard").text);
      const isBad = (err: unknown) => err instanceof TrustStoreError && err.code === "trust_store" && err.file === store.file && err.message.includes(store.file) && problem.test(err.message);
      assert.throws(() => store.status(project), isBad);
      await assert.rejects(run(), isBad);
    });
  }
});

describe("every accepted kind of default export loads", () => {
  test(".ts files with type annotations load through jiti", async () => {
    const path = projectFile("typed.ts", `interface Options { greeting: string }\nconst options: Options = { greeting: "hi" };\nexport default { name: "typed" as const, install(): void { void options.greeting; } } satisfies { name: string };\n`);
    store.trust(project);
    assert.deepEqual((await run()).extensions.map((e) => [e.extension.name, e.source]), [["typed", path]]);
  });

  test("instance, subclass, definition, factory (named after its file) and <name>/index.ts folder", async () => {
    projectFile("instance.ts", `import { defineExtension } from ${core};\nexport default defineExtension({ name: "instance", install() {} });\n`);
    projectFile("subclass.ts", `import { Extension } from ${core};\nexport default class Subclass extends Extension { readonly name = "subclass"; install(): void {} }\n`);
    projectFile("definition.mjs", `export default { name: "definition", contribute: () => ({ extension: "definition", tools: [], prompts: [], policies: [], lifecycle: [] }) };\n`);
    projectFile("audit.js", `export default (hx) => { hx.registerTool(() => "done", { name: "audit_log", description: "audit_log records an audit entry." }); };\n`);
    projectFile("folder/index.ts", `export default function (hx: { registerPromptProvider(p: () => string): unknown }): void { hx.registerPromptProvider(() => "from a folder"); }\n`);
    projectFile("README.md", "not an extension");
    projectFile("types.d.ts", "export type X = 1;\n");
    store.trust(project);
    const result = await run();
    assert.deepEqual(result.extensions.map((e) => e.extension.name), ["audit", "definition", "folder", "instance", "subclass"]);
    const agent = new Agent({ provider: new ScriptedProvider([{ text: "ok" }]), extensions: result.extensions });
    assert.ok(agent.tools.names().includes("audit_log"), "the factory's registration happened");
    const audit = agent.contributions().find((c) => c.extension === "audit")!;
    assert.deepEqual([audit.tools.map((t) => t.name), audit.level, audit.source], [["audit_log"], "project", join(project, ".harnessx", "extensions", "audit.js")]);
    assert.equal(agent.contributions().find((c) => c.extension === "folder")!.prompts.length, 1);
    await agent.close();
  });

  test("a module without a default export counts when it is shaped like a definition", async () => {
    projectFile("named.ts", `export const name = "named";\nexport function install(): void {}\n`);
    store.trust(project);
    assert.deepEqual((await run()).extensions.map((e) => e.extension.name), ["named"]);
  });

  test("an edited file is read again, not served from a cache", async () => {
    const path = projectFile("guard.ts", `export default { name: "first", install() {} };\n`);
    store.trust(project);
    assert.equal((await run()).extensions[0].extension.name, "first");
    write(path, `export default { name: "second", install() {} };\n`);
    store.trust(project);
    assert.equal((await run()).extensions[0].extension.name, "second");
  });
});

describe("a trusted file that cannot load fails discovery closed", () => {
  for (const [what, text, cause] of [
    ["throws at import", `throw new Error("guard is broken");\n`, /: guard is broken$/],
    ["does not parse", `export default {{;\n`, /ParseError/],
    ["exports a number", `export default 42;\n`, /its default export is a number; export default an Extension/],
    ["exports nothing usable", `export const answer = 42;\n`, /has no default export/],
  ] as const) {
    test(`${what}: ExtensionLoadError naming the file`, async () => {
      const path = projectFile("guard.ts", text);
      store.trust(project);
      await assert.rejects(run(), (err: unknown) => {
        assert.ok(err instanceof ExtensionLoadError, String(err));
        assert.equal(err.code, "extension_load");
        assert.equal(err.file, path);
        assert.ok(err.message.startsWith(`cannot load extension ${path}: `), err.message);
        assert.match(err.message, cause);
        assert.doesNotMatch(err.message, /\n/);
        return true;
      });
    });
  }

  test("a broken user extension fails closed too", async () => {
    const path = userFile("broken.ts", `throw new Error("nope");\n`);
    await assert.rejects(run(), (err: unknown) => err instanceof ExtensionLoadError && err.file === path);
  });
});

describe("user extensions and built-ins", () => {
  test("user extensions load without trust, before the project's, after built-ins", async () => {
    const user = userFile("mine.ts", marking("mine").text);
    const project1 = projectFile("theirs.ts", marking("theirs").text);
    const builtin = defineExtension({ name: "builtin-one", install() {} });
    const result = await run({ builtins: [builtin] });
    assert.deepEqual(result.extensions.map((e) => [e.extension.name, e.level, e.source]), [["builtin-one", "builtin", undefined], ["mine", "user", user]]);
    assert.deepEqual(result.skipped.map((s) => s.path), [project1]);
    store.trust(project);
    assert.deepEqual((await run({ builtins: [builtin] })).extensions.map((e) => e.level), ["builtin", "user", "project"]);
  });

  test("HARNESSX_HOME is the user folder and trust file when userDir is omitted", async (t) => {
    const previous = process.env.HARNESSX_HOME;
    process.env.HARNESSX_HOME = home;
    t.after(() => (previous === undefined ? delete process.env.HARNESSX_HOME : (process.env.HARNESSX_HOME = previous)));
    userFile("mine.ts", marking("mine").text);
    projectFile("theirs.ts", marking("theirs").text);
    store.trust(project);
    const result = await discover({ cwd: project });
    assert.deepEqual(result.extensions.map((e) => [e.extension.name, e.level]), [["mine", "user"], ["theirs", "project"]]);
  });

  test("a project whose .harnessx is the user folder loads its files once, as user", async () => {
    const path = userFile("mine.ts", marking("mine").text);
    symlinkSync(home, join(project, ".harnessx"), "dir");
    const once = await run();
    assert.deepEqual(once.extensions.map((e) => [e.extension.name, e.level, e.source]), [["mine", "user", path]]);
    assert.deepEqual(once.skipped, []);
  });

  test("two extensions with one name reject with both sources named", async () => {
    const user = userFile("guard.ts", `export default { name: "guard", install() {} };\n`);
    const theirs = projectFile("guard.ts", `export default { name: "guard", install() {} };\n`);
    store.trust(project);
    await assert.rejects(run(), (err: unknown) => err instanceof ExtensionConflictError && err.message.includes(`${user} (user)`) && err.message.includes(`${theirs} (project)`));
    const builtin = defineExtension({ name: "mine", install() {} });
    rmSync(theirs);
    userFile("mine.ts", `export default { name: "mine", install() {} };\n`);
    await assert.rejects(run({ builtins: [builtin] }), /"mine": a built-in and .*mine\.ts \(user\)/);
  });

  test("planDiscovery lists what would load without importing anything", () => {
    const mine = marking("mine");
    const user = userFile("mine.ts", mine.text);
    const theirs = projectFile("theirs.ts", marking("theirs").text);
    store.trust(project);
    assert.deepEqual(planDiscovery(options()), {
      load: [{ path: user, level: "user" }, { path: theirs, level: "project" }],
      skipped: [],
      resourceRoots: [{ dir: home, level: "user" }, { dir: join(project, ".harnessx"), level: "project" }],
      mcpFiles: [],
    });
    assert.equal(existsSync(mine.marker), false);
  });
});
