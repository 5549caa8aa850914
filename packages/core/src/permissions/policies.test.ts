import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { defineExtension } from "../extensions/extension.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { PermissionManager } from "./permission-manager.js";
import type { Policy } from "./policy.js";
import { echoTool, ofKind, recordEvents } from "../test-support/helpers.js";

function run(policies: Policy[], options: { permissions?: PermissionManager; tools?: ReturnType<typeof tool>[] } = {}) {
  const provider = new ScriptedProvider([{ toolCalls: [{ name: "echo", input: { text: "hi" } }] }, { text: "ok" }]);
  const ext = defineExtension({
    name: "guard",
    install: (ctx) => {
      for (const p of policies) ctx.addPolicy(p);
    },
  });
  const agent = new Agent({
    provider,
    tools: options.tools ?? [echoTool],
    permissions: options.permissions,
    extensions: [ext],
  });
  const seen = recordEvents(agent);
  return { agent, seen, go: () => agent.run("x") };
}

describe("fail-closed: verdicts combine deny-wins", () => {
  test("a deny from any policy wins over allows", async () => {
    const { seen, go } = run([
      { id: "yes", decide: () => "allow" },
      { id: "no", decide: () => ({ decision: "deny", reason: "echo is off today" }) },
    ]);
    const result = await go();
    assert.equal(result.status, "completed");
    const end = ofKind(seen, HookEvent.TOOL_CALL_END)[0];
    assert.equal(end.outcome, "denied");
    assert.equal(end.result.isError, true);
    assert.match(end.result.content, /echo is off today/);
    assert.equal(end.permission?.source, "policy:no@guard");
  });

  test("a policy allow never overrides the manager's ask or deny", async () => {
    const asked = run([{ id: "yes", decide: () => "allow" }], {
      permissions: new PermissionManager({ rules: { echo: "ask" } }),
    });
    assert.equal((await asked.go()).status, "awaiting_approval");
    const denied = run([{ id: "yes", decide: () => "allow" }], {
      permissions: new PermissionManager({ default: "deny" }),
    });
    await denied.go();
    assert.equal(ofKind(denied.seen, HookEvent.TOOL_CALL_END)[0].outcome, "denied");
  });

  test("a policy can ask, pausing the run for approval", async () => {
    const { go } = run([{ id: "careful", decide: () => ({ decision: "ask", reason: "needs a human" }) }]);
    const result = await go();
    assert.equal(result.status, "awaiting_approval");
    assert.equal(result.pending[0].reason, "needs a human");
  });

  for (const [label, decide, why] of [
    [
      "throws",
      () => {
        throw new Error("bug in policy");
      },
      /bug in policy/,
    ],
    [
      "rejects",
      async () => {
        throw new Error("db down");
      },
      /db down/,
    ],
    ["times out", () => new Promise<never>(() => {}), /timed out after 30 ms/],
    ["answers nonsense", () => "maybe" as never, /not allow\/ask\/deny/],
  ] as const) {
    test(`a policy that ${label} denies and says why`, async () => {
      const { seen, go } = run([{ id: "flaky", timeoutMs: 30, decide }]);
      assert.equal((await go()).status, "completed");
      const end = ofKind(seen, HookEvent.TOOL_CALL_END)[0];
      assert.equal(end.outcome, "denied");
      assert.match(end.result.content, why);
      assert.match(end.result.content, /fail closed/);
      assert.equal(ofKind(seen, HookEvent.ERROR)[0].source, "policy");
    });
  }

  test("actions limit a policy to the tools it names", async () => {
    const { seen, go } = run([{ id: "no_rm", actions: ["rm"], decide: () => "deny" }]);
    await go();
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0].outcome, "executed");
  });
});

describe("policy is checked again immediately before dispatch", () => {
  test("a verdict that changes between authorization and dispatch denies the call", async () => {
    const phases: string[] = [];
    let armed = false;
    const { seen, go } = run([
      {
        id: "late",
        decide: (req) => {
          phases.push(req.phase);
          if (armed && req.phase === "dispatch") return "deny";
          armed = true;
          return "allow";
        },
      },
    ]);
    await go();
    assert.deepEqual(phases, ["authorize", "dispatch"]);
    const end = ofKind(seen, HookEvent.TOOL_CALL_END)[0];
    assert.equal(end.outcome, "denied");
    assert.match(end.result.content, /at dispatch/);
  });

  test("an approved call is still denied by a policy at dispatch", async () => {
    const ask = tool({ name: "wire_money", description: "w", permission: "ask", execute: () => "sent" });
    let frozen = false;
    const provider = new ScriptedProvider([{ toolCalls: [{ name: "wire_money" }] }, { text: "ok" }]);
    const ext = defineExtension({
      name: "freeze",
      install: (ctx) => void ctx.addPolicy({ id: "freeze", decide: () => (frozen ? "deny" : "allow") }),
    });
    const agent = new Agent({ provider, tools: [ask], extensions: [ext] });
    const seen = recordEvents(agent);
    const first = await agent.run("x");
    frozen = true;
    await agent.resume({ [first.pending[0].id]: "approve" });
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0].outcome, "denied");
  });
});

describe("extension tools pass the same gate", () => {
  test("a tool registered by an extension is denied by the manager like any other", async () => {
    const provider = new ScriptedProvider([{ toolCalls: [{ name: "shell", input: {} }] }, { text: "ok" }]);
    const ext = defineExtension({
      name: "shell_ext",
      install: (ctx) => void ctx.registerTool(() => "ran!", { name: "shell", description: "runs commands" }),
    });
    const agent = new Agent({
      provider,
      extensions: [ext],
      permissions: new PermissionManager({ rules: { shell: "deny" } }),
    });
    const seen = recordEvents(agent);
    await agent.run("x");
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0].outcome, "denied");
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_START).length, 0, "the handler never started");
  });
});
