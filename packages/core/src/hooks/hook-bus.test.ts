import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { HookEvent } from "./events.js";
import type { ErrorData } from "./payloads.js";
import { echoTool, ofKind, recordEvents, scriptedAgent } from "../test-support/helpers.js";

describe("observers run in registration order and are awaited", () => {
  test("sync and async observers interleave in order", async () => {
    const agent = scriptedAgent([{ text: "ok" }]);
    const log: string[] = [];
    agent.hooks.on(HookEvent.AGENT_START, () => void log.push("a"));
    agent.hooks.on(HookEvent.AGENT_START, async () => {
      await new Promise((r) => setTimeout(r, 10));
      log.push("b");
    });
    agent.hooks.on(HookEvent.AGENT_START, () => void log.push("c"));
    agent.hooks.on(HookEvent.LLM_REQUEST, () => void log.push("request"));
    await agent.run("x");
    assert.deepEqual(log, ["a", "b", "c", "request"]);
  });

  test("a closed registration stops delivery; closing twice is harmless", async () => {
    const agent = scriptedAgent([{ text: "1" }, { text: "2" }]);
    let n = 0;
    const reg = agent.hooks.on(HookEvent.AGENT_END, () => void n++);
    await agent.run("x");
    reg.close();
    reg.close();
    await agent.run("y");
    assert.equal(n, 1);
  });

  test("beforeTool, afterTool and onError are shortcuts returning registrations", async () => {
    const agent = scriptedAgent([{ toolCalls: [{ name: "echo", input: { text: "a" } }] }, { error: { status: 400 } }], {
      tools: [echoTool],
    });
    const log: string[] = [];
    agent.hooks.beforeTool((ctx) => void log.push(`before ${ctx.data.toolCall.name}`));
    agent.hooks.afterTool((ctx) => void log.push(`after ${ctx.data.result.content}`));
    agent.hooks.onError((ctx) => void log.push(`error ${ctx.data.source}`));
    await agent.run("x");
    assert.deepEqual(log, ["before echo", "after echo: a", "error provider"]);
  });
});

describe("failure isolation: a failing observer never changes the run", () => {
  test("a throwing and a rejecting observer are reported as ERROR with source hook and the event name", async () => {
    const agent = scriptedAgent([{ toolCalls: [{ name: "echo", input: { text: "a" } }] }, { text: "fine" }], {
      tools: [echoTool],
    });
    const errors: ErrorData[] = [];
    agent.hooks.onError((ctx) => void errors.push(ctx.data));
    agent.hooks.on(HookEvent.TOOL_CALL_START, () => {
      throw new Error("sync boom");
    });
    agent.hooks.on(HookEvent.LLM_RESPONSE, async () => {
      throw new Error("async boom");
    });
    let later = 0;
    agent.hooks.on(HookEvent.TOOL_CALL_START, () => void later++);
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    assert.equal(result.text, "fine");
    assert.equal(later, 1, "observers after the failing one still run");
    assert.deepEqual(
      errors.map((e) => [e.source, e.event, e.error.message]),
      [
        ["hook", "llm_response", "async boom"],
        ["hook", "tool_call_start", "sync boom"],
        ["hook", "llm_response", "async boom"],
      ],
    );
  });

  test("an ERROR observer that throws is not re-reported (no loop)", async () => {
    const agent = scriptedAgent([{ text: "ok" }]);
    let errorCalls = 0;
    agent.hooks.onError(() => {
      errorCalls++;
      throw new Error("error observer fails too");
    });
    agent.hooks.on(HookEvent.AGENT_START, () => {
      throw new Error("first");
    });
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    assert.equal(errorCalls, 1);
  });
});

describe("payloads carry what DESIGN.md promises", () => {
  test("LLM_REQUEST has exactly the documented keys and the whole request as sent", async () => {
    const provider = new ScriptedProvider([{ text: "ok" }], { recordRequests: true });
    const agent = new Agent({
      limits: { maxTokens: 777 },
      provider,
      tools: [echoTool],
      system: "sys",
      temperature: 0.3,
    });
    const seen = recordEvents(agent);
    await agent.run("x");
    const req = ofKind(seen, HookEvent.LLM_REQUEST)[0];
    assert.deepEqual(Object.keys(req).sort(), [
      "maxTokens",
      "messageCount",
      "model",
      "prefixKey",
      "request",
      "stream",
      "system",
      "temperature",
      "toolCount",
    ]);
    // A frozen snapshot of the request as sent: equal to it, and no observer can change it.
    assert.deepEqual(req.request, provider.requests[0]);
    assert.ok(Object.isFrozen(req.request) && Object.isFrozen(req.request.messages[0]));
    assert.equal(req.maxTokens, 777);
    assert.equal(req.temperature, 0.3);
    assert.equal(req.toolCount, 1);
    assert.equal(req.messageCount, 1);
    assert.equal(req.stream, false);
    assert.ok(req.system.startsWith("sys"));
  });

  test("TOOL_CALL_END carries the processed result and the handler's raw result", async () => {
    const data = tool({ name: "data", description: "d", execute: () => ({ rows: [1, 2, 3] }) });
    const agent = scriptedAgent([{ toolCalls: [{ name: "data" }] }, { text: "ok" }], { tools: [data] });
    agent.middleware.add({ name: "Wrap", afterToolExecution: async (r) => ({ ...r, content: `<${r.content}>` }) });
    const seen = recordEvents(agent);
    await agent.run("x");
    const end = ofKind(seen, HookEvent.TOOL_CALL_END)[0];
    assert.deepEqual(end.rawResult, { rows: [1, 2, 3] });
    assert.equal(end.result.content, '<{"rows":[1,2,3]}>');
    assert.equal(typeof end.durationMs, "number");
  });

  test("LLM_RESPONSE carries the raw reply, before response middleware", async () => {
    const agent = scriptedAgent([{ text: "raw" }]);
    agent.middleware.add({
      name: "Up",
      afterLlmCall: async (r) => ({ ...r, content: [{ type: "text" as const, text: "processed" }] }),
    });
    const seen = recordEvents(agent);
    const result = await agent.run("x");
    assert.equal(result.text, "processed");
    const res = ofKind(seen, HookEvent.LLM_RESPONSE)[0];
    assert.deepEqual(res.response.content, [{ type: "text", text: "raw" }]);
    assert.equal(res.stopReason, "end_turn");
    assert.equal(res.provider, "scripted");
  });

  test("prefixKey is stable across iterations and changes when the tool list changes", async () => {
    const agent = scriptedAgent(
      [{ toolCalls: [{ name: "echo", input: { text: "a" } }] }, { text: "1" }, { text: "2" }],
      { tools: [echoTool] },
    );
    const seen = recordEvents(agent);
    await agent.run("x");
    agent.tools.register(tool({ name: "extra", description: "extra", execute: () => "" }));
    await agent.run("y");
    const keys = ofKind(seen, HookEvent.LLM_REQUEST).map((r) => r.prefixKey);
    assert.equal(keys[0], keys[1]);
    assert.notEqual(keys[1], keys[2]);
  });

  test("every event carries the run id and a timestamp", async () => {
    const agent = scriptedAgent([{ text: "ok" }]);
    const ids = new Set<string | undefined>();
    agent.hooks.onAny((ctx) => {
      ids.add(ctx.runId);
      assert.ok(ctx.timestamp > 0);
    });
    const result = await agent.run("x");
    assert.deepEqual([...ids], [result.runId]);
  });
});

describe("AGENT_END fires for completion, failure and cancellation, never for an approval wait", () => {
  test("completion, failure, cancellation", async () => {
    const agent = scriptedAgent([{ text: "ok" }, { error: { status: 401 } }, { text: "slow", delayMs: 1000 }]);
    const seen = recordEvents(agent);
    await agent.run("a");
    await agent.run("b");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    await agent.run("c", { signal: controller.signal });
    assert.deepEqual(
      ofKind(seen, HookEvent.AGENT_END).map((e) => e.result.status),
      ["completed", "failed", "cancelled"],
    );
  });

  test("approval wait", async () => {
    const ask = tool({ name: "ask_me", description: "a", permission: "ask", execute: () => "" });
    const agent = scriptedAgent([{ toolCalls: [{ name: "ask_me" }] }], { tools: [ask] });
    const seen = recordEvents(agent);
    const result = await agent.run("x");
    assert.equal(result.status, "awaiting_approval");
    assert.equal(ofKind(seen, HookEvent.AGENT_END).length, 0);
  });
});
