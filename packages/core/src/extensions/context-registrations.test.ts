// What each ctx.register* / add* call checks, records in the extension's contribution and
// hands on to the agent, and what it refuses with which message.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import { Agent } from "../engine/agent.js";
import { ExtensionError, PrivilegeWideningError, ToolRegistrationError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { echoTool, ofKind, recordEvents } from "../test-support/helpers.js";
import type { ExtensionContext } from "./extension-context.js";
import { defineExtension } from "./extension.js";

const provider = (steps = [{ text: "ok" }]) => new ScriptedProvider(steps, { recordRequests: true });
const named = (name: string, description = "") => tool({ name, description, execute: () => name });

/** An agent with one extension `ext` whose install runs `install`; the context is kept for later calls. */
function withContext(
  install: (ctx: ExtensionContext) => void = () => {},
  options: { tools?: ReturnType<typeof named>[]; name?: string } = {},
) {
  let ctx!: ExtensionContext;
  const agent = new Agent({
    provider: provider(),
    tools: options.tools,
    extensions: [
      defineExtension({
        name: options.name ?? "ext",
        install: (c) => {
          ctx = c;
          install(c);
        },
      }),
    ],
  });
  return { agent, ctx, mine: () => agent.contributions().find((c) => c.extension === (options.name ?? "ext"))! };
}

function throwsFrom(fn: () => unknown, kind: new (...args: never[]) => Error, message: string) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof kind, String(err));
    assert.equal((err as Error).message, message);
    return true;
  });
}

describe("tools", () => {
  test("mcp__ names belong to the MCP extension alone", () => {
    const { ctx } = withContext();
    throwsFrom(
      () => ctx.registerTool(named("mcp__github__exfiltrate")),
      PrivilegeWideningError,
      `extension "ext": tool:mcp__github__exfiltrate: names starting with "mcp__" belong to the MCP extension's servers (the user's "mcp__<server>__*" rules grant them); choose another name`,
    );
    assert.doesNotThrow(
      () => ctx.registerTool(named("export_mcp__")),
      "the prefix is reserved, not the text anywhere in a name",
    );
    const mcp = withContext((c) => void c.registerTool(named("mcp__github__search")), { name: "mcp" });
    assert.deepEqual(mcp.agent.tools.names(), ["mcp__github__search"]);
  });

  test("a name held elsewhere names its holder, with and without replace", () => {
    const { ctx } = withContext(() => {}, { tools: [named("app_tool")] });
    throwsFrom(
      () => ctx.registerTool(named("app_tool")),
      ToolRegistrationError,
      'extension "ext": tool "app_tool" is already registered by the application',
    );
    throwsFrom(
      () => ctx.registerTool(named("app_tool"), { replace: true }),
      PrivilegeWideningError,
      `extension "ext": tool:app_tool: belongs to the application; an extension cannot take over another owner's tool (the user's permission rules name that tool)`,
    );
    let other!: ExtensionContext;
    new Agent({
      provider: provider(),
      extensions: [
        defineExtension({ name: "first", install: (c) => void c.registerTool(named("theirs")) }),
        defineExtension({ name: "second", install: (c) => void (other = c) }),
      ],
    });
    throwsFrom(
      () => other.registerTool(named("theirs")),
      ToolRegistrationError,
      'extension "second": tool "theirs" is already registered by extension "first"',
    );
    throwsFrom(
      () => other.registerTool(named("theirs"), { replace: true }),
      PrivilegeWideningError,
      `extension "second": tool:theirs: belongs to extension "first"; an extension cannot take over another owner's tool (the user's permission rules name that tool)`,
    );
  });

  test("options override a tool's own fields; the tool's handler is kept", async () => {
    const { agent, ctx } = withContext();
    ctx.registerTool(echoTool, { name: "say", description: "say repeats its text." });
    ctx.registerTool(named("plain", "plain as declared"), { permission: "deny" });
    assert.deepEqual(agent.tools.names(), ["say", "plain"]);
    const say = agent.tools.get("say")!;
    assert.equal(say.description, "say repeats its text.");
    assert.equal(await say.execute({ text: "hi" }, {} as never), "echo: hi");
    assert.deepEqual(say.definition.inputSchema, echoTool.definition.inputSchema);
    const plain = agent.tools.get("plain")!;
    assert.deepEqual([plain.description, plain.permission], ["plain as declared", "deny"]);
  });

  test("a tool registered without options is used as declared: a zod schema keeps parsing the input", () => {
    const { agent, ctx } = withContext();
    ctx.registerTool(
      tool({
        name: "count",
        description: "",
        inputSchema: z.object({ n: z.number().default(3) }),
        execute: ({ n }) => n,
      }),
    );
    const validated = agent.tools.get("count")!.schema.validate({});
    assert.deepEqual(validated, { ok: true, value: { n: 3 } });
  });

  test("a bare handler needs a name and gets an empty description by default", () => {
    const { agent, ctx } = withContext();
    throwsFrom(
      () => ctx.registerTool(() => "x"),
      ToolRegistrationError,
      'extension "ext": registerTool with a handler needs options.name',
    );
    ctx.registerTool(() => "x", { name: "bare" });
    assert.equal(agent.tools.get("bare")!.description, "");
  });
});

describe("prompt fragments and policies", () => {
  test("fragments and policies are checked, recorded, and an id is registered once", () => {
    const { ctx, mine } = withContext();
    ctx.addPromptFragment({ id: "guide", text: "Use the tools." });
    throwsFrom(
      () => ctx.addPromptFragment({ id: "guide", text: "again" }),
      ExtensionError,
      'extension "ext": prompt fragment "guide" is already registered',
    );
    ctx.addPolicy({ id: "careful", decide: () => "allow" });
    throwsFrom(
      () => ctx.addPolicy({ id: "careful", decide: () => "deny" }),
      ExtensionError,
      'extension "ext": policy "careful" is already registered',
    );
    assert.throws(() => ctx.addPromptFragment({ id: "p", tier: "operator", text: "obey" }), PrivilegeWideningError);
    ctx.registerPromptProvider(() => "one");
    ctx.registerPromptProvider(() => "two");
    assert.deepEqual(
      mine().prompts.map((p) => [p.id, p.extension]),
      [
        ["guide", "ext"],
        ["provider-1", "ext"],
        ["provider-2", "ext"],
      ],
    );
    assert.deepEqual(
      mine().policies.map((p) => p.id),
      ["careful"],
    );
  });
});

describe("run limits, span ids, statuses and run attributes", () => {
  test("a run limit needs check(); one that says fail ends the run", async () => {
    const { ctx } = withContext();
    for (const limit of [undefined, {}, { check: "yes" }])
      throwsFrom(
        () => ctx.addRunLimit(limit as never),
        ExtensionError,
        'extension "ext": addRunLimit needs an object with a check(progress) function',
      );
    const limited = new Agent({
      provider: provider(),
      extensions: [
        defineExtension("cap", (c) => void c.addRunLimit({ check: () => ({ action: "fail", reason: "capped" }) })),
      ],
    });
    const result = await limited.run("x");
    assert.equal(result.status, "failed");
    assert.match(result.error!.message, /capped/);
  });

  test("only one extension provides span ids; its registration releases the place", () => {
    const source = { open: () => undefined };
    let second!: ExtensionContext;
    let first!: ExtensionContext;
    new Agent({
      provider: provider(),
      extensions: [defineExtension("a", (c) => void (first = c)), defineExtension("b", (c) => void (second = c))],
    });
    const reg = first.useSpanIds(source);
    throwsFrom(
      () => second.useSpanIds(source),
      ExtensionError,
      'extension "b": this agent already has a span id source; only one extension may provide span ids',
    );
    reg.close();
    assert.doesNotThrow(() => second.useSpanIds(source));
  });

  test("a status provider must be a function", () => {
    const { agent, ctx } = withContext();
    throwsFrom(
      () => ctx.registerStatus("ready" as never),
      ExtensionError,
      'extension "ext": registerStatus needs a function returning a line of text',
    );
    ctx.registerStatus(() => "ready");
    assert.deepEqual(agent.status(), [{ extension: "ext", text: "ready" }]);
  });

  test("run attributes are copied when added and reported at the start of each run", async () => {
    const attributes: Record<string, string> = { team: "billing" };
    const { agent, ctx } = withContext();
    ctx.addRunAttributes(attributes);
    attributes.team = "changed later";
    const seen = recordEvents(agent);
    await agent.run("x");
    assert.deepEqual(ofKind(seen, HookEvent.AGENT_START)[0]!.attributes, { team: "billing" });
  });
});

describe("commands, templates and message types", () => {
  test("a command needs a handler; its description and source are kept only when they are strings", async () => {
    const { agent, ctx, mine } = withContext();
    for (const spec of [undefined, {}, { handler: "run" }])
      throwsFrom(
        () => ctx.registerCommand("deploy", spec as never),
        ExtensionError,
        'extension "ext": command "/deploy" needs a handler(args, ctx) function',
      );
    const calls: [string, string][] = [];
    ctx.registerCommand("deploy", {
      description: "Deploy a service",
      source: "/cmds/deploy.ts",
      handler: (args, c) => void calls.push([args, c.extension]),
    });
    ctx.registerCommand("undo", {
      description: 42 as never,
      source: 7 as never,
      handler: () => "Undo the last change.",
    });
    assert.deepEqual(agent.commands(), [
      { name: "deploy", description: "Deploy a service", extension: "ext", source: "/cmds/deploy.ts" },
      { name: "undo", description: "", extension: "ext" },
    ]);
    assert.deepEqual(mine().commands, [
      { name: "deploy", description: "Deploy a service", extension: "ext" },
      { name: "undo", description: "", extension: "ext" },
    ]);
    await agent.run("/deploy billing now");
    assert.deepEqual(calls, [["billing now", "ext"]], "the handler gets the arguments and the extension's own context");
  });

  test("templates and message types are recorded with what they declare", () => {
    const { mine, ctx } = withContext();
    ctx.registerTemplate({ name: "triage", body: "Triage {{queue}} by {{when}}." });
    ctx.registerMessageType("note.seen" as never, { render: () => "seen" });
    ctx.registerMessageType("note.sent" as never, { toModel: () => null });
    assert.deepEqual(mine().templates, [{ name: "triage", parameters: ["queue", "when"], extension: "ext" }]);
    assert.deepEqual(mine().messageTypes, [
      { type: "note.seen", extension: "ext", toModel: false },
      { type: "note.sent", extension: "ext", toModel: true },
    ]);
  });
});
