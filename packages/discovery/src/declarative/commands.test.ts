// Slash commands: declarative ones from commands/*.md through discover(), code ones from
// ctx.registerCommand; expansion before the model, unknown commands fail without a model call.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Agent } from "@harnessx/core";
import { discover } from "../discovery/discover.js";
import { TrustStore } from "../discovery/trust-store.js";
import { UnknownCommandError } from "@harnessx/core";
import { defineExtension } from "@harnessx/core/extension";
import { HookEvent } from "@harnessx/core/extension";
import { ScriptedProvider, type ScriptStep } from "@harnessx/core";
import { ofKind, recordEvents } from "@harnessx/core/test-support";
import { parseCommandLine, splitArguments, substituteArguments } from "@harnessx/core";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";

const folders = tempFolders("hx-commands-");

async function agentFromDisk(steps: ScriptStep[] = [{ text: "done" }]) {
  const { extensions, invalid, skipped } = await discover({
    cwd: folders.project,
    userDir: folders.home,
    trustStore: new TrustStore(join(folders.home, "trust.json")),
  });
  const provider = new ScriptedProvider(steps, { recordRequests: true });
  const agent = new Agent({ provider, extensions });
  return { agent, provider, invalid, skipped, seen: recordEvents(agent) };
}

const userText = (provider: ScriptedProvider, call = 0) => {
  const first = provider.requests[call].messages[0].content[0];
  return first.type === "text" ? first.text : undefined;
};

describe("the command line", () => {
  test("only /name followed by space or the end is a command", () => {
    assert.deepEqual(parseCommandLine("/review src/a.ts  fast "), { name: "review", args: "src/a.ts  fast" });
    assert.deepEqual(parseCommandLine("/deploy"), { name: "deploy", args: "" });
    assert.equal(parseCommandLine("/usr/bin is missing"), undefined);
    assert.equal(parseCommandLine("please /review"), undefined);
  });

  test("arguments split at spaces, quotes hold one together, $ARGUMENTS and $1..$9 are substituted", () => {
    assert.deepEqual(splitArguments(`a "b c" 'd e' f\\"g`), ["a", "b c", "d e", 'f\\"g']);
    assert.equal(
      substituteArguments("Review $1 for $2 ($ARGUMENTS) $3.", 'a.ts "speed issues"'),
      'Review a.ts for speed issues (a.ts "speed issues") .',
    );
    assert.equal(substituteArguments("Summarize the log.", "only errors"), "Summarize the log.\n\nonly errors");
  });
});

describe("declarative commands from commands/*.md", () => {
  test("the body with the arguments becomes the user message; the use is reported and listed", async () => {
    const path = writeFileIn(
      join(folders.home, "commands", "review.md"),
      "---\ndescription: Review one file\n---\nReview $1 and list problems about $2.\n",
    );
    const { agent, provider, seen } = await agentFromDisk();
    assert.deepEqual(agent.commands(), [
      { name: "review", description: "Review one file", extension: "commands", source: path },
    ]);
    const result = await agent.run("/review src/a.ts security");
    assert.equal(result.status, "completed");
    assert.equal(userText(provider), "Review src/a.ts and list problems about security.");
    assert.deepEqual(ofKind(seen, HookEvent.COMMAND_INVOKED), [
      {
        command: "review",
        args: "src/a.ts security",
        found: true,
        extension: "commands",
        source: path,
        sent: true,
        messageChars: "Review src/a.ts and list problems about security.".length,
      },
    ]);
    assert.equal(
      ofKind(seen, HookEvent.AGENT_START)[0].input,
      "/review src/a.ts security",
      "the run records what the user typed",
    );
  });

  test("without a description the first line describes it; an empty file is skipped with its reason", async () => {
    writeFileIn(join(folders.home, "commands", "standup.md"), "# Write my standup\nFrom yesterday's commits.\n");
    const empty = writeFileIn(join(folders.home, "commands", "empty.md"), "---\ndescription: nothing\n---\n\n");
    const { agent, invalid } = await agentFromDisk();
    assert.deepEqual(
      agent.commands().map((c) => [c.name, c.description]),
      [["standup", "Write my standup"]],
    );
    assert.deepEqual(
      invalid.map((i) => [i.path, i.kind, i.reason]),
      [[empty, "command", "its body is empty"]],
    );
  });

  test("an untrusted project's commands do not load", async () => {
    const path = writeFileIn(join(folders.project, ".harnessx", "commands", "wipe.md"), "Delete everything.\n");
    const { agent, skipped } = await agentFromDisk();
    assert.deepEqual(agent.commands(), []);
    assert.deepEqual(skipped, [{ path, kind: "command", level: "project", reason: "untrusted" }]);
  });
});

describe("code commands from ctx.registerCommand", () => {
  const withCommands = (steps: ScriptStep[] = [{ text: "done" }]) => {
    const acted: string[] = [];
    const provider = new ScriptedProvider(steps, { recordRequests: true });
    const agent = new Agent({
      provider,
      extensions: [
        defineExtension("ops", (ctx) => {
          ctx.registerCommand("ticket", {
            description: "Work on a ticket",
            handler: (args) => `Fix ticket ${args}; the extension is ${ctx.extension}.`,
          });
          ctx.registerCommand("note", { description: "Save a note", handler: (args) => void acted.push(args) });
          ctx.registerCommand("broken", {
            description: "Fails",
            handler: () => Promise.reject(new Error("no backend")),
          });
        }),
      ],
    });
    return { agent, provider, acted, seen: recordEvents(agent) };
  };

  test("the handler's message is sent; the command appears in the contribution", async () => {
    const { agent, provider } = withCommands();
    await agent.run("/ticket 42");
    assert.equal(userText(provider), "Fix ticket 42; the extension is ops.");
    assert.deepEqual(
      agent.contributions()[0].commands.map((c) => c.name),
      ["ticket", "note", "broken"],
    );
  });

  test("a handler that returns nothing only acts: the run completes without a model call", async () => {
    const { agent, provider, acted, seen } = withCommands();
    const result = await agent.run("/note buy milk");
    assert.deepEqual([result.status, result.modelCalls, acted], ["completed", 0, ["buy milk"]]);
    assert.equal(provider.requests.length, 0);
    assert.equal(ofKind(seen, HookEvent.COMMAND_INVOKED)[0].sent, false);
  });

  test("an unknown command fails the run naming it and the known ones, with no model call", async () => {
    const { agent, provider, seen } = withCommands();
    const result = await agent.run("/tickte 42");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof UnknownCommandError);
    assert.match(result.error.message, /unknown command "\/tickte"; the commands are \/broken, \/note, \/ticket/);
    assert.equal(provider.requests.length, 0);
    assert.deepEqual(ofKind(seen, HookEvent.COMMAND_INVOKED), [
      { command: "tickte", args: "42", found: false, sent: false, messageChars: 0 },
    ]);
  });

  test("a failing handler fails the run closed, attributed to its extension", async () => {
    const { agent, provider } = withCommands();
    const result = await agent.run("/broken");
    assert.equal(result.status, "failed");
    assert.match(result.error!.message, /ops.*command "\/broken" failed: no backend/);
    assert.equal(provider.requests.length, 0);
  });

  test("two extensions cannot register one command name", () => {
    const register = (name: string) =>
      defineExtension(name, (ctx) => void ctx.registerCommand("deploy", { description: "", handler: () => "go" }));
    assert.throws(
      () => new Agent({ provider: new ScriptedProvider([]), extensions: [register("a"), register("b")] }),
      /command "\/deploy" is already registered by extension "a"/,
    );
  });
});
