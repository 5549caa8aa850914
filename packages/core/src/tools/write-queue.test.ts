// The one file-write queue: calls whose declared paths overlap run one after another whoever
// registered the tools; calls on disjoint paths still run together.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { defineExtension } from "../extensions/extension.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import { tool } from "./tool.js";

/** A concurrent writer whose handler logs its start and end, and yields in between (long enough for another call to start if it may). */
function writer(name: string, log: string[], gate?: { started: Promise<void>; open: () => void }) {
  return tool({
    name,
    description: `${name} writes a file.`,
    concurrent: true,
    writes: (input) => [String(input.path)],
    execute: async ({ path }) => {
      log.push(`${name} start ${String(path)}`);
      gate?.open();
      await Promise.race([gate?.started, new Promise((r) => setTimeout(r, 30))]);
      log.push(`${name} end ${String(path)}`);
      return "written";
    },
  });
}

function agentWriting(paths: [string, string], log: string[], gate?: { started: Promise<void>; open: () => void }) {
  // The editor is the application's; the formatter comes from an extension: one queue holds both.
  const formatter = defineExtension("formatter", (ctx) => void ctx.registerTool(writer("format_file", log, gate)));
  const provider = new ScriptedProvider([
    {
      toolCalls: [
        { name: "edit_file", input: { path: paths[0] } },
        { name: "format_file", input: { path: paths[1] } },
      ],
    },
    { text: "done" },
  ]);
  return new Agent({ provider, tools: [writer("edit_file", log)], extensions: [formatter] });
}

function gate() {
  let open!: () => void;
  const started = new Promise<void>((r) => (open = r));
  return { started, open };
}

describe("the file-write queue", () => {
  test("an extension's writer waits for the application's editor on the same file", async () => {
    const log: string[] = [];
    await agentWriting(["src/app.ts", "./src/app.ts"], log).run("edit and format");
    assert.deepEqual(log, [
      "edit_file start src/app.ts",
      "edit_file end src/app.ts",
      "format_file start ./src/app.ts",
      "format_file end ./src/app.ts",
    ]);
  });

  test("a folder and a file inside it overlap", async () => {
    const log: string[] = [];
    await agentWriting(["src", "src/app.ts"], log).run("x");
    assert.deepEqual(
      log.map((l) => l.split(" ").slice(0, 2).join(" ")),
      ["edit_file start", "edit_file end", "format_file start", "format_file end"],
    );
  });

  test("calls on disjoint paths still run together", async () => {
    const log: string[] = [];
    // The editor waits until the formatter has started: only possible when they overlap in time.
    const formatterStarted = gate();
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { name: "edit_file", input: { path: "src/a.ts" } },
          { name: "format_file", input: { path: "src/b.ts" } },
        ],
      },
      { text: "done" },
    ]);
    const editor = tool({
      name: "edit_file",
      description: "edit_file writes a file.",
      concurrent: true,
      writes: (input) => [String(input.path)],
      execute: async () => {
        log.push("edit_file start");
        await Promise.race([formatterStarted.started, new Promise((r) => setTimeout(r, 2_000))]);
        log.push("edit_file end");
        return "ok";
      },
    });
    const formatter = defineExtension(
      "formatter",
      (ctx) => void ctx.registerTool(writer("format_file", log, formatterStarted)),
    );
    await new Agent({ provider, tools: [editor], extensions: [formatter] }).run("x");
    assert.deepEqual(log.slice(0, 2), ["edit_file start", "format_file start src/b.ts"]);
  });

  test("a tool that cannot say what it writes fails that call, and runs nothing", async () => {
    let ran = false;
    const broken = tool({
      name: "broken",
      description: "d",
      writes: () => {
        throw new Error("no path in input");
      },
      execute: () => void (ran = true),
    });
    const agent = new Agent({
      provider: new ScriptedProvider([{ toolCalls: [{ name: "broken", input: {} }] }, { text: "done" }]),
      tools: [broken],
    });
    const seen = recordEvents(agent);
    await agent.run("x");
    const end = ofKind(seen, HookEvent.TOOL_CALL_END)[0];
    assert.deepEqual(
      [end!.outcome, end!.result.content, ran],
      ["failed", 'Error: tool "broken" could not say which paths it writes: no path in input', false],
    );
  });
});
