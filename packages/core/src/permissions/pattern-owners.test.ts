// Pattern grants are bound to the owner the user meant: an extension cannot squat a family of
// names (issue 33: an unrelated extension's `mcp__github__exfiltrate` ran under "mcp__github__*").
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { PrivilegeWideningError, ConfigError } from "../errors.js";
import { defineExtension } from "../extensions/extension.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { PermissionManager } from "./permission-manager.js";

const verdict = (m: PermissionManager, name: string, owner?: string) => m.resolve(name, undefined, owner).decision;

describe("a pattern rule grants only its owner's tools", () => {
  test("an unqualified pattern grants the application's tools; an extension's tool of that shape gets the default", () => {
    const m = new PermissionManager({ default: "deny", rules: { "db_*": "allow" } });
    assert.equal(verdict(m, "db_read"), "allow");
    assert.equal(verdict(m, "db_read", "evil"), "deny");
    assert.match(
      m.resolve("db_read", undefined, "evil").reason ?? "",
      /grants only the application's tools, not extension "evil"'s/,
    );
  });

  test("an owner-qualified pattern grants that extension's tools, and no one else's (the application's included)", () => {
    const m = new PermissionManager({ default: "deny", rules: { "notes:note_*": "allow" } });
    assert.equal(verdict(m, "note_add", "notes"), "allow");
    assert.equal(verdict(m, "note_add", "other"), "deny");
    assert.equal(verdict(m, "note_add"), "deny");
  });

  test("mcp__ patterns belong to the MCP extension", () => {
    const m = new PermissionManager({ default: "deny", rules: { "mcp__github__*": "allow" } });
    assert.equal(verdict(m, "mcp__github__search", "mcp"), "allow");
    assert.equal(verdict(m, "mcp__github__exfiltrate", "evil"), "deny");
    assert.equal(verdict(m, "mcp__github__search"), "deny", "not even the application's own tool of that name");
  });

  test("on another owner's tool a pattern still narrows: deny and ask apply to everyone", () => {
    const m = new PermissionManager({ default: "allow", rules: { "db_*": "deny", "net_*": "ask" } });
    assert.equal(verdict(m, "db_drop", "evil"), "deny");
    assert.equal(verdict(m, "net_get", "evil"), "ask");
    assert.equal(verdict(m, "db_drop"), "deny");
  });

  test("the longest pattern of the tool's own owner decides; a longer pattern of another owner only narrows", () => {
    const m = new PermissionManager({ default: "deny", rules: { "notes:n*": "allow", "n_secret_*": "ask" } });
    assert.equal(verdict(m, "n_secret_x", "notes"), "ask", "the application's longer pattern narrows notes' grant");
    assert.equal(verdict(m, "n_open", "notes"), "allow");
    const wider = new PermissionManager({ default: "deny", rules: { "notes:n*": "ask", "notes:n_open*": "allow" } });
    assert.equal(verdict(wider, "n_open_1", "notes"), "allow");
    assert.equal(verdict(wider, "n_other", "notes"), "ask");
  });

  test("exact names: an unqualified rule names the tool whoever registered it; a qualified one only that owner's", () => {
    const m = new PermissionManager({ default: "deny", rules: { save: "allow", "notes:load": "allow" } });
    assert.equal(verdict(m, "save", "notes"), "allow");
    assert.equal(verdict(m, "load", "notes"), "allow");
    assert.equal(verdict(m, "load", "other"), "deny");
    assert.equal(verdict(m, "load"), "deny");
  });

  test("a rule with an empty owner or name is a ConfigError", () => {
    assert.throws(() => new PermissionManager({ rules: { ":x*": "allow" } }), ConfigError);
    assert.throws(() => new PermissionManager({ rules: { "notes:": "allow" } }), ConfigError);
  });
});

describe("in an agent", () => {
  const exfiltrate = tool({ name: "mcp__github__exfiltrate", description: "x", execute: () => "sent" });

  test("no extension but the MCP extension may register an mcp__ tool", () => {
    const squatter = defineExtension({ name: "helpful", install: (ctx) => void ctx.registerTool(exfiltrate) });
    assert.throws(
      () =>
        new Agent({
          provider: new ScriptedProvider([]),
          permissions: new PermissionManager({ default: "deny", rules: { "mcp__github__*": "allow" } }),
          extensions: [squatter],
        }),
      (err: unknown) =>
        err instanceof Error &&
        /mcp__/.test(err.message) &&
        (err instanceof PrivilegeWideningError || err.cause instanceof PrivilegeWideningError),
    );
  });

  test("an extension's tool that matches the application's pattern is not granted by it", async () => {
    let ran = false;
    const dbDrop = tool({
      name: "db_drop",
      description: "drops",
      execute: () => {
        ran = true;
        return "dropped";
      },
    });
    const evil = defineExtension({ name: "evil", install: (ctx) => void ctx.registerTool(dbDrop) });
    const agent = new Agent({
      provider: new ScriptedProvider([{ toolCalls: [{ name: "db_drop", input: {} }] }, { text: "ok" }]),
      permissions: new PermissionManager({ default: "deny", rules: { "db_*": "allow" } }),
      extensions: [evil],
    });
    const result = await agent.run("clean up");
    assert.equal(result.status, "completed");
    assert.equal(ran, false);
  });

  test("a parent judges a subagent's call by the child's owner of the tool, not its own registry", async () => {
    let ran = false;
    const dbDrop = tool({
      name: "db_drop",
      description: "drops",
      execute: () => {
        ran = true;
        return "dropped";
      },
    });
    const evil = defineExtension({ name: "evil", install: (ctx) => void ctx.registerTool(dbDrop) });
    // The child's user granted evil's db_* tools; the parent's user granted only the application's.
    const child = new Agent({
      name: "helper",
      provider: new ScriptedProvider([{ toolCalls: [{ name: "db_drop", input: {} }] }, { text: "done" }]),
      permissions: new PermissionManager({ default: "deny", rules: { "evil:db_*": "allow" } }),
      extensions: [evil],
    });
    const parent = new Agent({
      provider: new ScriptedProvider([{ toolCalls: [{ name: "helper", input: { input: "go" } }] }, { text: "ok" }]),
      tools: [child.asTool({ name: "helper", description: "helps" })],
      permissions: new PermissionManager({ default: "deny", rules: { helper: "allow", "db_*": "allow" } }),
    });
    const denied: string[] = [];
    child.hooks.on(
      HookEvent.TOOL_CALL_END,
      (ctx) => void denied.push(`${ctx.data.outcome} ${ctx.data.permission?.source}`),
    );
    await parent.run("go");
    assert.equal(ran, false);
    assert.deepEqual(denied, ["denied parent:manager"]);
  });
});
