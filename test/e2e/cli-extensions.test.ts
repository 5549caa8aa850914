import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { TrustStore, discover } from "@harnessx/discovery";
import { defineExtension } from "@harnessx/core/extension";
import { FlightRecorderExtension } from "@harnessx/recorder";
import { cliWorkspace, recordGuardedRun, supportScript, supportTools } from "@harnessx/cli/test-support";

const cli = cliWorkspace();

let runId: string;

before(async () => {
  runId = (await recordGuardedRun(cli.store)).runId;
});
after(() => cli.cleanup());

describe("a recording says which extension contributed, blocked or allowed what", () => {
  test("run.json lists each extension with its level and the ids of what it contributed", () => {
    const manifest = JSON.parse(readFileSync(join(cli.store, "runs", runId, "run.json"), "utf8"));
    const guard = manifest.extensions.find((e: { name: string }) => e.name === "guard");
    assert.deepEqual(guard, {
      name: "guard",
      level: "builtin",
      tools: [],
      prompts: ["etiquette"],
      policies: ["no-flaky"],
      lifecycle: [],
      middleware: [],
      observers: [],
      commands: [],
      templates: [],
      messageTypes: [],
    });
    assert.deepEqual(
      manifest.extensions.map((e: { name: string }) => e.name),
      ["flight-recorder", "guard"],
    );
  });

  test("trace show lists the extensions and names the policy and extension that denied a call", async () => {
    const r = await cli.trace("show", runId);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^extensions \(2\)\n {2}flight-recorder@\d+\.\d+\.\d+\S* {2}\[builtin\] {2}observers \*\n {2}guard {2}\[builtin\] {2}prompts etiquette; policies no-flaky\n/,
    );
    assert.match(r.stdout, /tool_call_end {2}flaky denied by policy no-flaky of extension guard/);
    assert.match(
      r.stdout,
      /tool_call_start {2}search \(call_search\) permission allow\s/,
      "a default decision adds nothing",
    );
  });

  test("replay rebuilds the extension's prompt fragment and reproduces the run", async () => {
    const r = await cli.trace("--json", "replay", runId);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.reproduced, true, r.stdout);
  });
});

describe("a trusted project's extension is recorded with its level and file", () => {
  test("discover -> agent -> recording -> trace show", async () => {
    const project = join(realpathSync(cli.work), "project");
    const userDir = join(cli.work, "home");
    const guardFile = join(project, ".harnessx", "extensions", "guard.ts");
    mkdirSync(join(project, ".harnessx", "extensions"), { recursive: true });
    writeFileSync(
      guardFile,
      `import type { ExtensionContext } from "@harnessx/core";
export default function (hx: ExtensionContext): void {
  hx.addPolicy({ id: "no-flaky", actions: ["flaky"], decide: () => ({ decision: "deny", reason: "quarantined" }) });
}
`,
    );
    const trustStore = new TrustStore(join(userDir, "trust.json"));
    trustStore.trust(project);
    const found = await discover({
      cwd: project,
      userDir,
      trustStore,
      builtins: [new FlightRecorderExtension({ dir: cli.store })],
    });
    assert.deepEqual(found.skipped, []);
    const agent = new Agent({
      provider: new ScriptedProvider(supportScript()),
      name: "support-bot",
      tools: supportTools(),
      extensions: found.extensions,
    });
    const { runId: projectRun } = await agent.run("pricing?");
    await agent.close();

    const manifest = JSON.parse(readFileSync(join(cli.store, "runs", projectRun, "run.json"), "utf8"));
    assert.deepEqual(manifest.extensions[1], {
      name: "guard",
      level: "project",
      source: guardFile,
      tools: [],
      prompts: [],
      policies: ["no-flaky"],
      lifecycle: [],
      middleware: [],
      observers: [],
      commands: [],
      templates: [],
      messageTypes: [],
    });
    const r = await cli.trace("show", projectRun);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes(`  guard  [project]  ${guardFile}  policies no-flaky\n`), r.stdout);
    assert.match(r.stdout, /tool_call_end {2}flaky denied by policy no-flaky of extension guard/);
  });
});

describe("skills and commands from a trusted project's files are recorded and shown", () => {
  test("discover -> /command -> load_skill -> recording -> trace show", async () => {
    const project = join(realpathSync(cli.work), "declarative");
    const userDir = join(cli.work, "declarative-home");
    const skillFile = join(project, ".harnessx", "skills", "pricing", "SKILL.md");
    const commandFile = join(project, ".harnessx", "commands", "quote.md");
    mkdirSync(join(project, ".harnessx", "skills", "pricing"), { recursive: true });
    mkdirSync(join(project, ".harnessx", "commands"), { recursive: true });
    writeFileSync(skillFile, "---\nname: pricing\ndescription: How to quote a price\n---\nQuote list prices only.\n");
    writeFileSync(commandFile, "Quote $1 for the customer.\n");
    const trustStore = new TrustStore(join(userDir, "trust.json"));
    trustStore.trust(project);
    const found = await discover({
      cwd: project,
      userDir,
      trustStore,
      builtins: [new FlightRecorderExtension({ dir: cli.store })],
    });
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: "load_skill", input: { name: "pricing" } }] },
      { text: "The list price is 10." },
    ]);
    const notes = defineExtension({
      name: "notes",
      install: (ctx) => void ctx.registerMessageType("note", { render: ({ data }) => `remember ${String(data)}` }),
      onTurnStart: (ctx) => ctx.appendMessage("note", "the discount"),
    });
    const agent = new Agent({ provider, name: "support-bot", extensions: [...found.extensions, notes] });
    const { runId: declaredRun, status } = await agent.run("/quote widgets");
    await agent.close();
    assert.equal(status, "completed");

    const r = await cli.trace("show", declaredRun);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stdout.includes(
        `  skills  [project]  ${join(project, ".harnessx", "skills")}  tools load_skill; prompts catalog\n`,
      ),
      r.stdout,
    );
    assert.ok(
      r.stdout.includes(`  commands  [project]  ${join(project, ".harnessx", "commands")}  commands quote\n`),
      r.stdout,
    );
    assert.ok(
      r.stdout.includes(
        `command_invoked  /quote widgets (extension commands, ${commandFile}) sent a message of ${"Quote widgets for the customer.".length} chars`,
      ),
      r.stdout,
    );
    assert.ok(r.stdout.includes(`skill_invoked  skill pricing loaded (23 chars) from ${skillFile}`), r.stdout);
    assert.ok(
      r.stdout.includes("message_appended  note from notes (kept from the model): remember the discount"),
      r.stdout,
    );

    // Replay rebuilds the agent without the project's files: it starts from the message /quote expanded to.
    const replay = await cli.trace("--json", "replay", declaredRun);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.equal(JSON.parse(replay.stdout).reproduced, true, replay.stdout);
  });
});
