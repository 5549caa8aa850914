// What each span of the one mapping carries, attribute by attribute: the names and values the
// OpenTelemetry GenAI conventions and harnessx's own namespace give a run, a model call and a tool
// call, and what is left out (absent values, declared attributes in reserved namespaces).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { AgentStartData, LlmRequestData, LlmResponseData, ToolCallEndData } from "../hooks/payloads.js";
import type { RunResult } from "../engine/run-types.js";
import { agentClose, agentOpen, chatClose, chatOpen, failedClose, toolClose, toolOpen, type MappingOptions } from "./span-specs.js";

const NO_CONTENT: MappingOptions = { captureContent: false, maxContentChars: 20 };
const CONTENT: MappingOptions = { captureContent: true, maxContentChars: 20 };
const agent = { name: "helper", sessionId: "sess_1", provider: "acme" };
const start: AgentStartData = { runId: "run_1", input: "hi", model: "m-1", resumed: false };

const result = (over: Partial<RunResult>): RunResult => ({ status: "completed", text: "", pending: [], usage: { inputTokens: 10, outputTokens: 5, cost: { usd: 0.25, unpricedCalls: 0 } }, runId: "run_1", modelCalls: 1, ...over }) as RunResult;
const request = (over: Partial<LlmRequestData> = {}): LlmRequestData => ({ system: "sys", model: "m-1", maxTokens: 100, temperature: undefined, stream: false, messageCount: 1, toolCount: 0, prefixKey: "k", request: { model: "m-1", system: "", messages: [], tools: [], maxTokens: 100, stream: false }, ...over }) as LlmRequestData;
const reply = (over: Partial<LlmResponseData> = {}): LlmResponseData =>
  ({ response: { id: "resp_1", model: "m-1", provider: "acme", content: [{ type: "text", text: "hello" }], stopReason: "end_turn", usage: { inputTokens: 3, outputTokens: 4 } }, provider: "acme", model: "m-1-2025", usage: { inputTokens: 3, outputTokens: 4 }, cost: { usd: 0.5, inputUsd: 0.25, outputUsd: 0.25, source: "prices", pricedAs: "m-1" }, stopReason: "end_turn", durationMs: 2, ...over }) as LlmResponseData;
const call = { id: "c1", name: "search", input: { q: "x" } };
const end = (over: Partial<ToolCallEndData> = {}): ToolCallEndData => ({ toolCall: call, result: { toolCallId: "c1", name: "search", content: "found", isError: false }, rawResult: "found", durationMs: 1, outcome: "executed", ...over }) as ToolCallEndData;

describe("the run span (invoke_agent)", () => {
  test("opens with the agent, its conversation, provider, model and run id", () => {
    const open = agentOpen(agent, start, 1000);
    assert.deepEqual(open, {
      role: "agent",
      name: "invoke_agent helper",
      kind: "INTERNAL",
      time: 1000,
      attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": "acme", "gen_ai.conversation.id": "sess_1", "gen_ai.agent.name": "helper", "gen_ai.request.model": "m-1", "harnessx.run.id": "run_1" },
      detail: { role: "agent", start },
    });
  });

  test("without a provider, a session or a model those attributes are left out; a resumed run says so", () => {
    const open = agentOpen({ name: "bare" }, { ...start, model: "", resumed: true }, 1);
    assert.deepEqual(open.attributes, { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "bare", "harnessx.run.id": "run_1", "harnessx.run.resumed": true });
  });

  test("declared run attributes are kept outside the reserved namespaces; only the framework name passes from harnessx's", () => {
    const attributes = { "app.tenant": "acme", "app.shard": 3, "app.beta": false, "app.tags": ["a", "b"], "app.mixed": ["a", 1], "app.object": { x: 1 }, "gen_ai.agent.name": "forged", "gen_ai.custom": "forged", "harnessx.run.id": "forged", "harnessx.other": "forged", "harnessx.framework": "ai-sdk" };
    const open = agentOpen(agent, { ...start, attributes: attributes as never }, 1);
    assert.deepEqual(open.attributes, {
      "app.tenant": "acme",
      "app.shard": 3,
      "app.beta": false,
      "app.tags": ["a", "b"],
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": "acme",
      "gen_ai.conversation.id": "sess_1",
      "gen_ai.agent.name": "helper",
      "gen_ai.request.model": "m-1",
      "harnessx.run.id": "run_1",
      "harnessx.framework": "ai-sdk",
    });
    assert.equal(agentOpen(agent, { ...start, attributes: { "harnessx.framework": 7 } as never }, 1).attributes["harnessx.framework"], undefined, "a framework name must be text");
  });

  test("closes with the status, tokens and cost of the run", () => {
    const close = agentClose(start, result({ usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1, cost: { usd: 0.25, unpricedCalls: 2 } } as never }), 2000);
    assert.deepEqual(close.attributes, {
      "harnessx.run.status": "completed",
      "gen_ai.usage.input_tokens": 10,
      "gen_ai.usage.output_tokens": 5,
      "gen_ai.usage.cache_read.input_tokens": 2,
      "gen_ai.usage.cache_creation.input_tokens": 1,
      "harnessx.cost.usd": 0.25,
      "harnessx.cost.unpriced_calls": 2,
    });
    assert.equal(close.error, undefined);
    assert.equal(close.time, 2000);
    assert.equal((close.detail as { result?: RunResult }).result?.status, "completed", "the detail keeps the result");
    assert.deepEqual(agentClose(start, result({ usage: undefined as never }), 1).attributes, { "harnessx.run.status": "completed" }, "a recorded result without usage");
  });

  test("a run without a known cost has no cost attribute; no unpriced calls, no count", () => {
    const close = agentClose(start, result({ usage: { inputTokens: 1, outputTokens: 1, cost: { usd: null, unpricedCalls: 0 } } as never }), 1);
    assert.deepEqual(close.attributes, { "harnessx.run.status": "completed", "gen_ai.usage.input_tokens": 1, "gen_ai.usage.output_tokens": 1 });
    const recorded = agentClose(start, result({ usage: { inputTokens: "1", outputTokens: null } as never }), 1);
    assert.deepEqual(recorded.attributes, { "harnessx.run.status": "completed" }, "token counts that are not numbers are left out");
  });

  test("a failed run is an error of its code; a cancelled one of type cancelled; an unfinished one says so", () => {
    const failed = agentClose(start, result({ status: "failed", error: Object.assign(new Error("model refused"), { code: "provider_refusal" }) as never }), 1);
    assert.deepEqual(failed.error, { type: "provider_refusal", message: "model refused" });
    assert.equal(failed.attributes["error.type"], "provider_refusal");
    assert.deepEqual(agentClose(start, result({ status: "failed" }), 1).error, { type: "run_failed", message: "" }, "without an error: run_failed");
    const cancelled = agentClose(start, result({ status: "cancelled" }), 1);
    assert.deepEqual(cancelled.error, { type: "cancelled", message: "the run was cancelled" });
    assert.equal(cancelled.attributes["error.type"], "cancelled");
    const unfinished = agentClose(start, undefined, 1);
    assert.deepEqual(unfinished, { time: 1, attributes: { "harnessx.run.status": "unfinished" }, detail: { role: "agent", start } });
    assert.deepEqual(agentClose(start, result({ status: "awaiting_approval" }), 1).error, undefined);
  });
});

describe("the model call span (chat)", () => {
  test("opens with the request's model, its limit and temperature", () => {
    const open = chatOpen(agent, request({ temperature: 0.2 }), 5, NO_CONTENT);
    assert.deepEqual(open, {
      role: "chat",
      name: "chat m-1",
      kind: "CLIENT",
      time: 5,
      attributes: { "gen_ai.operation.name": "chat", "gen_ai.provider.name": "acme", "gen_ai.conversation.id": "sess_1", "gen_ai.request.model": "m-1", "gen_ai.request.max_tokens": 100, "gen_ai.request.temperature": 0.2 },
      detail: { role: "chat", request: request({ temperature: 0.2 }) },
    });
  });

  test("a limit of 0 (none set) and a missing temperature are left out; a limit of 1 is kept", () => {
    assert.deepEqual(chatOpen({ name: "a" }, request({ maxTokens: 0 }), 5, NO_CONTENT).attributes, { "gen_ai.operation.name": "chat", "gen_ai.request.model": "m-1" });
    assert.equal(chatOpen({ name: "a" }, request({ maxTokens: 1 }), 5, NO_CONTENT).attributes["gen_ai.request.max_tokens"], 1);
    assert.equal(chatOpen({ name: "a" }, request({ maxTokens: "9" as never }), 5, NO_CONTENT).attributes["gen_ai.request.max_tokens"], undefined);
  });

  test("content is captured only when asked: the system prompt, the messages and the tools", () => {
    const full = { model: "m-1", system: "be brief", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], tools: [{ name: "search", description: "finds", inputSchema: { type: "object" } }], maxTokens: 100, stream: false };
    const withContent = chatOpen({ name: "a" }, request({ request: full as never }), 5, CONTENT).attributes;
    assert.equal(withContent["gen_ai.system_instructions"], JSON.stringify([{ type: "text", content: "be brief" }]));
    assert.equal(withContent["gen_ai.input.messages"], JSON.stringify([{ role: "user", parts: [{ type: "text", content: "hi" }] }]));
    assert.equal(withContent["gen_ai.tool.definitions"], JSON.stringify([{ type: "function", name: "search", description: "finds", parameters: { type: "object" } }]));
    assert.deepEqual(Object.keys(chatOpen({ name: "a" }, request({ request: full as never }), 5, NO_CONTENT).attributes).sort(), ["gen_ai.operation.name", "gen_ai.request.max_tokens", "gen_ai.request.model"]);
    const empty = chatOpen({ name: "a" }, request({ request: { ...full, system: "", tools: [] } as never }), 5, CONTENT).attributes;
    assert.equal(empty["gen_ai.system_instructions"], undefined, "no system prompt, no attribute");
    assert.equal(empty["gen_ai.tool.definitions"], undefined, "no tools, no attribute");
    const recorded = chatOpen({ name: "a" }, request({ request: { ...full, messages: "[not recorded]", tools: "[not recorded]" } as never }), 5, CONTENT).attributes;
    assert.equal(recorded["gen_ai.input.messages"], undefined, "messages a recording left out are not made up");
    assert.equal(recorded["gen_ai.tool.definitions"], undefined);
    assert.equal(chatOpen({ name: "a" }, request({ request: undefined as never }), 5, CONTENT).attributes["gen_ai.input.messages"], undefined);
  });

  test("closes with the reply's id, model, finish reason, tokens and cost", () => {
    const close = chatClose(agent, request(), reply({ usage: { inputTokens: 3, outputTokens: 4, cacheReadTokens: 1, cacheWriteTokens: 0 } }), 9, NO_CONTENT);
    assert.deepEqual(close, {
      time: 9,
      attributes: {
        "gen_ai.response.id": "resp_1",
        "gen_ai.response.model": "m-1-2025",
        "gen_ai.response.finish_reasons": ["end_turn"],
        "gen_ai.usage.input_tokens": 3,
        "gen_ai.usage.output_tokens": 4,
        "gen_ai.usage.cache_read.input_tokens": 1,
        "gen_ai.usage.cache_creation.input_tokens": 0,
        "harnessx.cost.usd": 0.5,
        "gen_ai.usage.cost": 0.5,
        "langfuse.observation.cost_details": JSON.stringify({ input: 0.25, output: 0.25, total: 0.5 }),
      },
      detail: { role: "chat", request: request(), response: reply({ usage: { inputTokens: 3, outputTokens: 4, cacheReadTokens: 1, cacheWriteTokens: 0 } }) },
    });
  });

  test("an unpriced reply says why instead of a cost; another provider's reply (a fallback) names it", () => {
    const close = chatClose(agent, request(), reply({ cost: { usd: null, reason: "no price for m-1" }, provider: "backup" }), 9, NO_CONTENT);
    assert.equal(close.attributes["harnessx.cost.unpriced_reason"], "no price for m-1");
    assert.equal(close.attributes["harnessx.cost.usd"], undefined);
    assert.equal(close.attributes["gen_ai.usage.cost"], undefined);
    assert.equal(close.attributes["gen_ai.provider.name"], "backup");
    assert.equal(chatClose(agent, request(), reply(), 9, NO_CONTENT).attributes["gen_ai.provider.name"], undefined, "the same provider is not repeated");
  });

  test("a reply without id, model, finish reason, usage or cost leaves those out", () => {
    const bare = chatClose(agent, request(), { response: {}, provider: "", model: "", stopReason: "", durationMs: 1 } as never, 9, CONTENT);
    assert.deepEqual(bare.attributes, {});
    const recorded = chatClose(agent, request(), { provider: "acme", model: "m", stopReason: "end_turn", durationMs: 1 } as never, 9, CONTENT);
    assert.deepEqual(recorded.attributes, { "gen_ai.response.model": "m", "gen_ai.response.finish_reasons": ["end_turn"] }, "a recorded reply without its response object");
  });

  test("the reply's content is captured only when asked, with the conventions' finish reason", () => {
    const captured = chatClose(agent, request(), reply(), 9, CONTENT).attributes["gen_ai.output.messages"];
    assert.equal(captured, JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "hello" }], finish_reason: "stop" }]));
    assert.equal(chatClose(agent, request(), reply(), 9, NO_CONTENT).attributes["gen_ai.output.messages"], undefined);
  });
});

describe("the tool call span (execute_tool)", () => {
  test("opens with the tool's name, call id and type; arguments only when content is captured", () => {
    assert.deepEqual(toolOpen(call, 3, NO_CONTENT), {
      role: "tool",
      name: "execute_tool search",
      kind: "INTERNAL",
      time: 3,
      attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search", "gen_ai.tool.call.id": "c1", "gen_ai.tool.type": "function" },
      detail: { role: "tool", toolCall: call },
    });
    assert.equal(toolOpen(call, 3, CONTENT).attributes["gen_ai.tool.call.arguments"], '{"q":"x"}');
    assert.equal(toolOpen({ ...call, input: undefined as never }, 3, CONTENT).attributes["gen_ai.tool.call.arguments"], "{}", "no input: empty arguments");
  });

  test("arguments past the limit become a cut JSON string, their length kept beside", () => {
    const long = { ...call, input: { q: "x".repeat(40) } };
    const attributes = toolOpen(long, 3, CONTENT).attributes;
    const json = JSON.stringify(long.input);
    assert.equal(attributes["gen_ai.tool.call.arguments"], JSON.stringify(json.slice(0, 20)));
    assert.equal(attributes["harnessx.original_chars.gen_ai.tool.call.arguments"], json.length);
    const exact = { ...call, input: { q: "x".repeat(12) } };
    assert.equal(JSON.stringify(exact.input).length, 20);
    assert.equal(toolOpen(exact, 3, CONTENT).attributes["gen_ai.tool.call.arguments"], JSON.stringify(exact.input), "exactly the limit is kept whole");
  });

  test("a tool's declared attributes are kept outside the reserved namespaces", () => {
    const open = toolOpen(call, 3, NO_CONTENT, { "mcp.method.name": "tools/call", "server.port": 443, "gen_ai.tool.name": "forged", "gen_ai.custom": "forged", "harnessx.tool.outcome": "forged" });
    assert.deepEqual(open.attributes, { "mcp.method.name": "tools/call", "server.port": 443, "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search", "gen_ai.tool.call.id": "c1", "gen_ai.tool.type": "function" });
  });

  test("closes with the outcome; a result that is JSON stays JSON, other text becomes a JSON string", () => {
    assert.deepEqual(toolClose(end(), undefined, 4, NO_CONTENT), { time: 4, attributes: { "harnessx.tool.outcome": "executed" }, detail: { role: "tool", toolCall: call, end: end() } });
    const result = (content: string) => toolClose(end({ result: { toolCallId: "c1", name: "search", content, isError: false } }), undefined, 4, CONTENT).attributes["gen_ai.tool.call.result"];
    assert.equal(result('{"hits":2}'), '{"hits":2}');
    assert.equal(result("[1,2]"), "[1,2]");
    assert.equal(result("{not json"), JSON.stringify("{not json"));
    assert.equal(result("[not json"), JSON.stringify("[not json"));
    assert.equal(result("plain"), '"plain"');
    assert.equal(result("42"), '"42"', "JSON that is not an object or a list stays text");
    assert.equal(result("true"), '"true"');
    assert.equal(toolClose(end({ result: { toolCallId: "c1", name: "search", isError: false } as never }), undefined, 4, CONTENT).attributes["gen_ai.tool.call.result"], '""', "a recorded result without content");
    assert.equal(result(""), '""');
  });

  test("a spilled result is shown by reference only", () => {
    const close = toolClose(end(), { resultId: "res_1", bytes: 9000 }, 4, { captureContent: true, maxContentChars: 100 });
    assert.deepEqual(close.attributes, { "harnessx.tool.outcome": "executed", "harnessx.result.spilled": true, "harnessx.result.id": "res_1", "harnessx.result.bytes": 9000, "gen_ai.tool.call.result": JSON.stringify({ resultId: "res_1", bytes: 9000 }) });
    assert.deepEqual(close.detail, { role: "tool", toolCall: call, end: end(), spill: { resultId: "res_1", bytes: 9000 } });
  });

  test("an error result is an error of its outcome, or tool_error when the tool ran", () => {
    const failed = toolClose(end({ outcome: "denied", result: { toolCallId: "c1", name: "search", content: "Error: denied", isError: true } }), undefined, 4, NO_CONTENT);
    assert.deepEqual(failed.error, { type: "denied", message: "Error: denied" });
    assert.equal(failed.attributes["error.type"], "denied");
    const ran = toolClose(end({ result: { toolCallId: "c1", name: "search", content: "Error: boom", isError: true } }), undefined, 4, NO_CONTENT);
    assert.deepEqual(ran.error, { type: "tool_error", message: "Error: boom" });
    const recorded = toolClose(end({ outcome: undefined, result: { toolCallId: "c1", name: "search", isError: true } as never }), undefined, 4, NO_CONTENT);
    assert.deepEqual(recorded.error, { type: "tool_error", message: "" });
    assert.deepEqual(recorded.attributes, { "error.type": "tool_error" });
    assert.equal(toolClose(end({ result: undefined as never }), undefined, 4, CONTENT).attributes["gen_ai.tool.call.result"], undefined);
  });

  test("failedClose keeps the detail and sets the error and its type", () => {
    assert.deepEqual(failedClose({ detail: { role: "tool", toolCall: call } }, { type: "cancelled", message: "stopped" }, 8), { detail: { role: "tool", toolCall: call }, time: 8, attributes: { "error.type": "cancelled" }, error: { type: "cancelled", message: "stopped" } });
  });
});
