// What the engine checks of what middleware returns: the call it passes on is validated and
// authorized like the model's own, and breaking an identity rule (ids, provider-owned content,
// a pending continuation) or throwing fails the run naming the middleware.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { MiddlewareError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import type { ToolCall, ToolResult } from "../types/content.js";
import type { ProviderResponse } from "../types/provider.js";
import { Middleware, type MiddlewareLike } from "./middleware.js";
import { echoTool, ofKind, recordEvents } from "../test-support/helpers.js";
import { toolTurn } from "../test-support/tool-turn.js";

describe("the engine validates and authorizes the call middleware returns", () => {
  test("a normalizing middleware's output is what gets validated and executed", async () => {
    class Trim extends Middleware {
      override async beforeToolExecution(call: ToolCall) {
        return { ...call, input: { text: String(call.input.text).trim() } };
      }
    }
    const agent = new Agent({ provider: toolTurn(), tools: [echoTool] });
    agent.middleware.add(new Trim());
    const seen = recordEvents(agent);
    await agent.run("x");
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0]!.result.content, "echo: padded");
  });

  test("a middleware that breaks the input gets a validation error, not execution", async () => {
    const agent = new Agent({ provider: toolTurn(), tools: [echoTool] });
    agent.middleware.add({
      name: "Breaker",
      beforeToolExecution: async (call: ToolCall) => ({ ...call, input: { text: 1 } }),
    });
    const seen = recordEvents(agent);
    await agent.run("x");
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0]!.outcome, "invalid_input");
  });

  test("renaming a call to a tool whose permission is deny is refused by the permission gate", async () => {
    const agent = new Agent({ provider: toolTurn(), tools: [echoTool] });
    const { tool } = await import("../tools/tool.js");
    agent.tools.register(tool({ name: "rm", description: "rm", permission: "deny", execute: () => "removed" }));
    agent.middleware.add({
      name: "Rename",
      beforeToolExecution: async (call: ToolCall) => ({ ...call, name: "rm", input: {} }),
    });
    const seen = recordEvents(agent);
    await agent.run("x");
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0]!.outcome, "denied");
  });
});

describe("identity rules: breaking them fails the run naming the middleware", () => {
  const failing = async (mw: MiddlewareLike, provider = toolTurn()) => {
    const agent = new Agent({ provider, tools: [echoTool] });
    agent.middleware.add(mw);
    const result = await agent.run("x");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof MiddlewareError, `got ${String(result.error)}`);
    return result.error as MiddlewareError;
  };

  test("changing call.id", async () => {
    const err = await failing({
      name: "IdChanger",
      beforeToolExecution: async (c: ToolCall) => ({ ...c, id: "other" }),
    });
    assert.equal(err.middleware, "IdChanger");
    assert.match(err.message, /changed the call id/);
  });

  test("changing a result's toolCallId", async () => {
    const err = await failing({
      name: "ResultMover",
      afterToolExecution: async (r: ToolResult) => ({ ...r, toolCallId: "x" }),
    });
    assert.equal(err.middleware, "ResultMover");
  });

  test("altering signed reasoning", async () => {
    const provider = new ScriptedProvider([{ reasoning: { text: "secret plan", signature: "sig" }, text: "hi" }]);
    const err = await failing(
      {
        name: "ThoughtPolice",
        afterLlmCall: async (r: ProviderResponse) => ({
          ...r,
          content: r.content.map((b) => (b.type === "reasoning" ? { ...b, text: "edited" } : b)),
        }),
      },
      provider,
    );
    assert.equal(err.middleware, "ThoughtPolice");
    assert.match(err.message, /provider-owned/);
  });

  test("dropping an opaque provider block", async () => {
    const provider = new ScriptedProvider([
      { providerBlocks: [{ provider: "anthropic", data: { type: "redacted_thinking", data: "xyz" } }], text: "hi" },
    ]);
    await failing(
      {
        name: "Dropper",
        afterLlmCall: async (r: ProviderResponse) => ({
          ...r,
          content: r.content.filter((b) => b.type !== "provider"),
        }),
      },
      provider,
    );
  });

  test("turning a pending provider continuation into an end", async () => {
    const provider = new ScriptedProvider([{ text: "a", stopReason: "pause_turn" }, { text: "b" }]);
    const err = await failing(
      { name: "Ender", afterLlmCall: async (r: ProviderResponse) => ({ ...r, stopReason: "end_turn" as const }) },
      provider,
    );
    assert.match(err.message, /pause_turn/);
  });

  test("editing text next to signed reasoning is allowed", async () => {
    const provider = new ScriptedProvider([{ reasoning: { text: "plan", signature: "sig" }, text: "hi" }]);
    const agent = new Agent({ provider });
    agent.middleware.add({
      name: "Editor",
      afterLlmCall: async (r: ProviderResponse) => ({
        ...r,
        content: r.content.map((b) => (b.type === "text" ? { ...b, text: "HI" } : b)),
      }),
    });
    assert.equal((await agent.run("x")).text, "HI");
  });

  test("a middleware exception fails the run with a typed error and an ERROR event", async () => {
    const agent = new Agent({ provider: toolTurn(), tools: [echoTool] });
    agent.middleware.add({
      name: "Thrower",
      beforeToolExecution: async () => {
        throw new Error("nope");
      },
    });
    const seen = recordEvents(agent);
    const result = await agent.run("x");
    assert.equal(result.status, "failed");
    assert.match(result.error!.message, /"Thrower" \(beforeToolExecution\): nope/);
    assert.equal(ofKind(seen, HookEvent.ERROR)[0]!.source, "middleware");
    assert.equal(ofKind(seen, HookEvent.AGENT_END)[0]!.result.status, "failed");
  });
});
