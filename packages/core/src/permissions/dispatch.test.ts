import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { PermissionManager } from "./permission-manager.js";
import type { Permission } from "./decision.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";

/**
 * One turn asks for `change` then `wire`. Running `change` sets the user's rule for `wire`,
 * so the rule changes after `wire` was authorized and before it is dispatched.
 */
function batchChangingRule(to: Permission) {
  let wired = 0;
  const permissions = new PermissionManager();
  const change = tool({
    name: "change",
    description: "changes a rule.",
    execute: () => {
      permissions.set("wire", to);
      return "changed";
    },
  });
  const wire = tool({
    name: "wire",
    description: "wires money.",
    execute: () => {
      wired++;
      return "sent";
    },
  });
  const provider = new ScriptedProvider([
    {
      toolCalls: [
        { name: "change", input: {} },
        { name: "wire", input: {} },
      ],
    },
    { text: "ok" },
  ]);
  const agent = new Agent({ provider, tools: [change, wire], permissions });
  const seen = recordEvents(agent);
  const wireEnd = () => ofKind(seen, HookEvent.TOOL_CALL_END).find((e) => e.toolCall.name === "wire")!;
  return { agent, wired: () => wired, wireEnd };
}

/** `wire` is under an `ask` rule: the run pauses for approval, and the test changes the rule while it waits. */
function awaitingApproval() {
  let wired = 0;
  const permissions = new PermissionManager({ rules: { wire: "ask" } });
  const wire = tool({
    name: "wire",
    description: "wires money.",
    execute: () => {
      wired++;
      return "sent";
    },
  });
  const provider = new ScriptedProvider([{ toolCalls: [{ name: "wire", input: {} }] }, { text: "ok" }]);
  const agent = new Agent({ provider, tools: [wire], permissions });
  const seen = recordEvents(agent);
  return { agent, permissions, wired: () => wired, end: () => ofKind(seen, HookEvent.TOOL_CALL_END)[0] };
}

describe("the user's permission manager is asked again at dispatch", () => {
  test("a rule changed to deny between authorization and dispatch denies the call", async () => {
    const { agent, wired, wireEnd } = batchChangingRule("deny");
    assert.equal((await agent.run("pay")).status, "completed");
    assert.equal(wired(), 0, "the handler never ran");
    assert.equal(wireEnd().outcome, "denied");
    assert.equal(wireEnd().permission?.source, "manager");
    assert.match(wireEnd().result.content, /permission denied for "wire" at dispatch: rule for "wire"/);
  });

  test("a rule changed to ask between authorization and dispatch does not run the call unapproved", async () => {
    const { agent, wired, wireEnd } = batchChangingRule("ask");
    assert.equal((await agent.run("pay")).status, "completed");
    assert.equal(wired(), 0);
    assert.equal(wireEnd().outcome, "denied");
    assert.match(wireEnd().result.content, /needs the user's approval since it was authorized.*Call it again/);
  });

  test("a user's approval still stands against an ask rule", async () => {
    const { agent, wired, end } = awaitingApproval();
    const waiting = await agent.run("pay");
    assert.equal((await agent.resume({ [waiting.pending[0].id]: "approve" })).status, "completed");
    assert.equal(wired(), 1);
    assert.equal(end().outcome, "executed");
    assert.equal(end().permission?.source, "user");
  });

  test("a user's approval does not stand against a rule changed to deny while the call waited", async () => {
    const { agent, permissions, wired, end } = awaitingApproval();
    const waiting = await agent.run("pay");
    permissions.set("wire", "deny");
    assert.equal((await agent.resume({ [waiting.pending[0].id]: "approve" })).status, "completed");
    assert.equal(wired(), 0);
    assert.equal(end().outcome, "denied");
    assert.equal(end().permission?.source, "manager");
  });
});
