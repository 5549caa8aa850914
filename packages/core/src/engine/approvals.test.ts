import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HookEvent } from "../hooks/events.js";
import { PermissionManager } from "../permissions/permission-manager.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { Agent } from "./agent.js";
import { echoTool, ofKind, recordEvents } from "../test-support/helpers.js";

function approvalAgent() {
  let deletes = 0;
  const del = tool({
    name: "delete_file",
    description: "deletes a file",
    permission: "ask",
    execute: ({ path }) => {
      deletes++;
      return `deleted ${String(path)}`;
    },
  });
  const provider = new ScriptedProvider(
    [
      {
        toolCalls: [
          { name: "echo", input: { text: "first" } },
          { name: "delete_file", input: { path: "/tmp/a" } },
        ],
      },
      { text: "finished" },
    ],
    { recordRequests: true },
  );
  const agent = new Agent({ provider, tools: [echoTool, del] });
  return { agent, provider, deletes: () => deletes };
}

describe("ask -> awaiting_approval -> resume", () => {
  test("an ask tool pauses the run with the call in pending; AGENT_END does not fire", async () => {
    const { agent, deletes } = approvalAgent();
    const seen = recordEvents(agent);
    const result = await agent.run("clean up");
    assert.equal(result.status, "awaiting_approval");
    assert.equal(result.pending.length, 1);
    assert.equal(result.pending[0].toolCall.name, "delete_file");
    assert.equal(result.pending[0].id, "call_1_2");
    assert.equal(deletes(), 0);
    assert.equal(ofKind(seen, HookEvent.AGENT_END).length, 0);
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END).length, 1, "the allowed call in the same turn already ran");
    assert.deepEqual(ofKind(seen, HookEvent.CHECKPOINT), [
      { sessionId: agent.sessionId, runId: result.runId, status: "awaiting_approval", phase: "approval_wait" },
    ]);
  });

  test("approve runs the call and the run completes", async () => {
    const { agent, provider, deletes } = approvalAgent();
    const first = await agent.run("clean up");
    const result = await agent.resume({ [first.pending[0].id]: "approve" });
    assert.equal(result.status, "completed");
    assert.equal(result.text, "finished");
    assert.equal(result.runId, first.runId);
    assert.equal(deletes(), 1);
    const results = provider.requests[1].messages
      .at(-1)!
      .content.map((b) => (b.type === "tool_result" ? b.content : ""));
    assert.deepEqual(results, ["echo: first", "deleted /tmp/a"]);
  });

  test("deny gives the model an error result and the run completes", async () => {
    const { agent, provider, deletes } = approvalAgent();
    const seen = recordEvents(agent);
    const first = await agent.run("clean up");
    const result = await agent.resume({ [first.pending[0].id]: "deny" });
    assert.equal(result.status, "completed");
    assert.equal(deletes(), 0);
    const denied = provider.requests[1].messages.at(-1)!.content[1] as { content: string; isError: boolean };
    assert.equal(denied.isError, true);
    assert.match(denied.content, /user denied/);
    const end = ofKind(seen, HookEvent.TOOL_CALL_END).find((e) => e.toolCall.name === "delete_file")!;
    assert.equal(end.outcome, "denied");
    assert.equal(end.permission?.source, "user");
  });

  test("resume refuses a decision set missing a pending call, and keeps the run waiting", async () => {
    const { agent } = approvalAgent();
    const first = await agent.run("clean up");
    await assert.rejects(agent.resume({}), /missing: call_1_2/);
    const result = await agent.resume({ [first.pending[0].id]: "approve" });
    assert.equal(result.status, "completed");
  });

  test("a new run while one waits for approval is refused", async () => {
    const { agent } = approvalAgent();
    await agent.run("clean up");
    await assert.rejects(agent.run("something else"), /waiting for approval/);
  });

  test("a permission manager rule turns any tool into ask, and deny refuses it", async () => {
    const provider = new ScriptedProvider([{ toolCalls: [{ name: "echo", input: { text: "x" } }] }, { text: "ok" }], {
      recordRequests: true,
    });
    const agent = new Agent({
      provider,
      tools: [echoTool],
      permissions: new PermissionManager({ rules: { echo: "deny" } }),
    });
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    const block = provider.requests[1].messages.at(-1)!.content[0] as { content: string; isError: boolean };
    assert.equal(block.isError, true);
    assert.match(block.content, /permission denied/);
  });
});
