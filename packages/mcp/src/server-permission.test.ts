// A server's `permission` applies to every tool it lists: "deny" refuses each call, "ask" waits
// for a human, and it only narrows: "allow" never widens the user's rules. Against a real MCP
// server over streamable HTTP on a loopback port.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { HookEvent, PermissionManager, type Permission, type ToolCallEndData } from "@harnessx/core/extension";
import { connectMcpServers } from "./index.js";
import { startHttpServer } from "./test-support/index.js";

let http: Awaited<ReturnType<typeof startHttpServer>>;
before(async () => {
  http = await startHttpServer("web");
});
after(() => http.close());

/** Runs one call of mcp__web__echo with the server's `permission`; its result and how the call ended. */
async function echoWith(permission: Permission | undefined, permissions?: PermissionManager) {
  const mcp = await connectMcpServers({ servers: { web: { url: http.url, ...(permission ? { permission } : {}) } } });
  const agent = new Agent({
    provider: new ScriptedProvider([
      { toolCalls: [{ id: "e1", name: "mcp__web__echo", input: { text: "hi" } }] },
      { text: "ok" },
    ]),
    extensions: [mcp],
    permissions,
  });
  const ends: ToolCallEndData[] = [];
  agent.hooks.on(HookEvent.TOOL_CALL_END, (ctx) => void ends.push(ctx.data));
  try {
    const result = await agent.run("echo");
    return { result, end: ends[0] };
  } finally {
    await agent.close();
  }
}

describe("an MCP server's permission applies to each of its tools", () => {
  test("deny: the call is refused and never reaches the server", async () => {
    const { result, end } = await echoWith("deny");
    assert.equal(result.status, "completed");
    assert.equal(end.outcome, "denied");
    assert.notEqual(end.result.content, "echo: hi");
  });

  test("ask: the run waits for a human's approval of the call", async () => {
    const { result, end } = await echoWith("ask");
    assert.equal(result.status, "awaiting_approval");
    assert.deepEqual(
      result.pending.map((p) => p.toolCall.name),
      ["mcp__web__echo"],
    );
    assert.equal(end, undefined, "nothing ran");
  });

  test("none set: the call runs under the manager's default", async () => {
    const { end } = await echoWith(undefined);
    assert.deepEqual([end.outcome, end.result.content], ["executed", "echo: hi"]);
  });

  test("allow does not widen a manager that denies by default", async () => {
    const { end } = await echoWith("allow", new PermissionManager({ default: "deny" }));
    assert.equal(end.outcome, "denied");
  });
});
