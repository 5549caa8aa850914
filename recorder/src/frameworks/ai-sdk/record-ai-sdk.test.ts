// AI SDK 7 runs (real generateText, the SDK's mock language model, a real tool) recorded by
// recordAiSdk read back like native runs: the same events, spans, tokens, redaction and failures.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateText, simulateReadableStream, stepCountIs, streamText, tool, jsonSchema } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { FlightRecorderExtension, openRecording, recordAiSdk, type RecordedEvent } from "../../index.js";
import { allStoreBytes, assertToolArgumentRedacted } from "../../test-support/store-bytes.js";
import { recordWeatherRun, WEATHER_RUN } from "../../test-support/ai-sdk-runs.js";
import { tempDir } from "../../../../test/support/system.js";

const store = tempDir("hx-ai-sdk-");
after(() => store.cleanup());

async function readBack(runId: string) {
  const recording = await openRecording({ storeDir: store.dir, runId });
  try {
    return { run: recording.run, events: await recording.readEvents(), spans: await recording.spans() };
  } finally {
    await recording.close();
  }
}

const kinds = (events: RecordedEvent[]) => events.map((e) => e.kind);
type Generated = Extract<NonNullable<ConstructorParameters<typeof MockLanguageModelV4>[0]>["doGenerate"], unknown[]>[number];

describe("a multi-step tool-calling run is recorded as a native run", () => {
  test("its events: the run, three model calls, two tool calls, in order", async () => {
    const { runId, text } = await recordWeatherRun({ recorder: { dir: store.dir } });
    assert.equal(text, WEATHER_RUN.answer);
    const { run, events } = await readBack(runId);
    assert.deepEqual(kinds(events), ["agent_start", "llm_request", "llm_response", "tool_call_start", "tool_call_end", "llm_request", "llm_response", "tool_call_start", "tool_call_end", "llm_request", "llm_response", "agent_end"]);
    assert.equal(run.status, "completed");
    assert.equal(run.agent, "ai-sdk");
    assert.equal(run.framework, "ai-sdk");
    assert.deepEqual(run.models, [WEATHER_RUN.model]);
    const start = events[0];
    assert.equal((start.attrs.spanAttributes as Record<string, unknown>)["harnessx.framework"], "ai-sdk");
  });

  test("run.json names the framework only for runs another framework made", async () => {
    const agent = new Agent({ provider: new ScriptedProvider([{ text: "hi" }]), extensions: [new FlightRecorderExtension({ dir: store.dir })] });
    const native = await agent.run("hello");
    await agent.close();
    const { run } = await readBack(native.runId);
    assert.equal(run.framework, undefined);
  });

  test("its spans: names, parents and each model call's tokens", async () => {
    const { runId } = await recordWeatherRun({ recorder: { dir: store.dir } });
    const { spans } = await readBack(runId);
    const root = spans.find((s) => s.kind === "run")!;
    assert.equal(root.name, "invoke_agent ai-sdk");
    assert.equal(root.status, "ok");
    assert.deepEqual(
      spans.filter((s) => s !== root).map((s) => [s.name, s.parentSpanId === root.spanId]),
      [["chat mock-weather-model", true], ["execute_tool weather", true], ["chat mock-weather-model", true], ["execute_tool weather", true], ["chat mock-weather-model", true]],
    );
    const chats = spans.filter((s) => s.kind === "model");
    assert.deepEqual(chats.map((s) => [s.inputTokens, s.outputTokens]), WEATHER_RUN.usage.map((u) => [u.input, u.output]));
    assert.equal(root.inputTokens, 780);
    assert.equal(root.outputTokens, 67);
    assert.ok(chats.every((s) => !("gen_ai.request.max_tokens" in s.attrs)), "a call that set no maxOutputTokens names no reply budget (not 0)");
  });

  test("a model call keeps what was sent and answered: messages, tools, cache reads, finish reason and response id", async () => {
    const { runId } = await recordWeatherRun({ recorder: { dir: store.dir } });
    const recording = await openRecording({ storeDir: store.dir, runId });
    try {
      const events = await recording.readEvents();
      type RequestPayload = { request: { system?: string; messages: Array<{ role: string; content: Array<{ type: string; content?: string }> }>; tools?: Array<{ name: string }> } };
      const requests = events.filter((e) => e.kind === "llm_request");
      // The recorder keeps the system prompt and tools once (later requests reuse them) and only the messages each request adds.
      const first = (await recording.payloadOf(requests[0])) as RequestPayload;
      assert.equal(first.request.system, "You advise on clothes.");
      assert.deepEqual(first.request.tools?.map((t) => t.name), ["weather"]);
      assert.deepEqual(first.request.messages[0].content, [{ type: "text", text: WEATHER_RUN.input }]);
      const second = (await recording.payloadOf(requests[1])) as RequestPayload;
      const toolResult = second.request.messages.flatMap((m) => m.content).find((b) => b.type === "tool_result");
      assert.match(toolResult?.content ?? "", /"sky":"rain"/);
      const response = events.filter((e) => e.kind === "llm_response")[1];
      assert.equal(response.attrs.stopReason, "tool_use");
      assert.equal(response.attrs.responseId, "resp-2");
      assert.equal(response.attrs.provider, WEATHER_RUN.provider);
      const reply = (await recording.payloadOf(response)) as { usage: { cacheReadTokens?: number } };
      assert.equal(reply.usage.cacheReadTokens, 100);
    } finally {
      await recording.close();
    }
  });
});

describe("a streamed run is recorded as one too", () => {
  test("streamText: streamed model calls, the tool call and the answer", async () => {
    const usage = { inputTokens: { total: 40, noCache: 40, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 6, text: 6, reasoning: undefined } };
    const finish = (unified: "tool-calls" | "stop") => ({ type: "finish" as const, finishReason: { unified, raw: undefined }, usage });
    const model = new MockLanguageModelV4({
      modelId: "mock-stream-model",
      doStream: [
        { stream: simulateReadableStream({ chunks: [{ type: "stream-start", warnings: [] }, { type: "tool-call", toolCallId: "s1", toolName: "clock", input: "{}" }, finish("tool-calls")] }) },
        { stream: simulateReadableStream({ chunks: [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "It is " }, { type: "text-delta", id: "t", delta: "noon." }, { type: "text-end", id: "t" }, finish("stop")] }) },
      ],
    });
    const recording = recordAiSdk({ recorder: { dir: store.dir } });
    const clock = tool({ description: "The time.", inputSchema: jsonSchema<Record<string, never>>({ type: "object", properties: {} }), execute: async () => "12:00" });
    const result = streamText({ model, prompt: "What time is it?", tools: { clock }, stopWhen: stepCountIs(3), telemetry: { integrations: recording } });
    assert.equal(await result.text, "It is noon.");
    await recording.close();
    const { run, events } = await readBack(recording.lastRun!);
    assert.equal(run.status, "completed");
    assert.deepEqual(kinds(events), ["agent_start", "llm_request", "llm_response", "tool_call_start", "tool_call_end", "llm_request", "llm_response", "agent_end"]);
    assert.deepEqual(events.filter((e) => e.kind === "llm_request").map((e) => e.attrs.stream), [true, true]);
    assert.equal((events[0].attrs.spanAttributes as Record<string, unknown>)["harnessx.ai_sdk.operation"], "ai.streamText");
    assert.equal(events.at(-1)!.attrs.outputTokens, 12);
  });
});

describe("a call made inside a tool nests under the tool's span", () => {
  test("generateText inside a recorded tool: its run's span hangs under the tool call's, in the same trace", async () => {
    const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 2, text: 2, reasoning: undefined } };
    const reply = (content: Generated["content"], unified: "tool-calls" | "stop"): Generated => ({ content, finishReason: { unified, raw: undefined }, usage, warnings: [] });
    const recording = recordAiSdk({ recorder: { dir: store.dir } });
    const inner = new MockLanguageModelV4({ modelId: "inner-model", doGenerate: [reply([{ type: "text", text: "42" }], "stop")] });
    const outer = new MockLanguageModelV4({ modelId: "outer-model", doGenerate: [reply([{ type: "tool-call", toolCallId: "d1", toolName: "delegate", input: "{}" }], "tool-calls"), reply([{ type: "text", text: "It is 42." }], "stop")] });
    let innerRun = "";
    let outerRun = "";
    const delegate = tool({
      description: "Asks another model.",
      inputSchema: jsonSchema<Record<string, never>>({ type: "object", properties: {} }),
      execute: async () => {
        outerRun = recording.lastRun!;
        const { text } = await generateText({ model: inner, prompt: "the answer?", telemetry: { integrations: recording } });
        innerRun = recording.lastRun!;
        return text;
      },
    });
    await generateText({ model: outer, prompt: "Ask the other model.", tools: { delegate }, stopWhen: stepCountIs(2), telemetry: { integrations: recording } });
    await recording.close();
    const outerSpans = (await readBack(outerRun)).spans;
    const innerRoot = (await readBack(innerRun)).spans.find((s) => s.kind === "run")!;
    const toolSpan = outerSpans.find((s) => s.kind === "tool")!;
    assert.notEqual(innerRun, outerRun);
    assert.equal(innerRoot.parentSpanId, toolSpan.spanId);
    assert.equal(innerRoot.traceId, toolSpan.traceId);
  });
});

describe("redaction happens before anything is written", () => {
  test("a secret in a tool call's arguments never reaches the store", async () => {
    const secretStore = tempDir("hx-ai-sdk-secret-");
    try {
      const secret = "ghp_AISDKSECRET0123456789abcdefghijklmnop";
      const { runId } = await recordWeatherRun({ recorder: { dir: secretStore.dir } }, { secret });
      await assertToolArgumentRedacted(secretStore.dir, runId, secret, "apiKey");
    } finally {
      secretStore.cleanup();
    }
  });
});

describe("the call's telemetry settings are kept", () => {
  test("with recordInputs and recordOutputs false, no prompt, argument, result or answer is written", async () => {
    const quiet = tempDir("hx-ai-sdk-quiet-");
    try {
      const { runId, text } = await recordWeatherRun({ recorder: { dir: quiet.dir } }, { record: { inputs: false, outputs: false } });
      assert.equal(text, WEATHER_RUN.answer);
      for (const file of await allStoreBytes(quiet.dir)) {
        for (const content of ["Oslo", "raincoat", "You advise", "sky"]) assert.ok(!file.text.includes(content), `"${content}" is in ${file.path}`);
      }
      const recording = await openRecording({ storeDir: quiet.dir, runId });
      const spans = await recording.spans();
      await recording.close();
      assert.equal(spans.length, 6, "the run's shape and tokens are still recorded");
      assert.equal(spans[0].inputTokens, 780);
    } finally {
      quiet.cleanup();
    }
  });
});

describe("failures are recorded as a native run records them", () => {
  test("a tool that throws: its call ends failed with the message, and the run goes on", async () => {
    const { runId } = await recordWeatherRun({ recorder: { dir: store.dir } }, { failingTool: true });
    const { run, events, spans } = await readBack(runId);
    assert.equal(run.status, "completed");
    const ends = events.filter((e) => e.kind === "tool_call_end");
    assert.deepEqual(ends.map((e) => e.attrs.outcome), ["executed", "failed"]);
    const failed = spans.filter((s) => s.kind === "tool")[1];
    assert.equal(failed.status, "error");
  });

  test("a model that fails: an ERROR, the open model call ends failed, and the run fails", async () => {
    const { runId, error } = await recordWeatherRun({ recorder: { dir: store.dir } }, { modelError: new Error("upstream 503: overloaded") });
    assert.ok(error, "generateText threw");
    const { run, events, spans } = await readBack(runId);
    assert.equal(run.status, "failed");
    assert.match(run.error?.message ?? "", /upstream 503/);
    assert.deepEqual(kinds(events).slice(-2), ["error", "agent_end"]);
    const chats = spans.filter((s) => s.kind === "model");
    assert.deepEqual(chats.map((s) => s.status), ["ok", "error"]);
  });
});
