// An AI SDK 7 streamText run (the SDK's mock language model streaming a tool call, then text)
// recorded by recordAiSdk reads back like a native run: streamed model calls, the tool call and
// the answer.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { jsonSchema, simulateReadableStream, stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { recordAiSdk } from "../../index.js";
import { aiSdkStore, kinds } from "../../test-support/ai-sdk-store.js";

const { store, readBack } = aiSdkStore();

describe("a streamed run is recorded as one too", () => {
  test("streamText: streamed model calls, the tool call and the answer", async () => {
    const usage = {
      inputTokens: { total: 40, noCache: 40, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 6, text: 6, reasoning: undefined },
    };
    const finish = (unified: "tool-calls" | "stop") => ({
      type: "finish" as const,
      finishReason: { unified, raw: undefined },
      usage,
    });
    const model = new MockLanguageModelV4({
      modelId: "mock-stream-model",
      doStream: [
        {
          stream: simulateReadableStream({
            chunks: [
              { type: "stream-start", warnings: [] },
              { type: "tool-call", toolCallId: "s1", toolName: "clock", input: "{}" },
              finish("tool-calls"),
            ],
          }),
        },
        {
          stream: simulateReadableStream({
            chunks: [
              { type: "stream-start", warnings: [] },
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "It is " },
              { type: "text-delta", id: "t", delta: "noon." },
              { type: "text-end", id: "t" },
              finish("stop"),
            ],
          }),
        },
      ],
    });
    const recording = recordAiSdk({ recorder: { dir: store.dir } });
    const clock = tool({
      description: "The time.",
      inputSchema: jsonSchema<Record<string, never>>({ type: "object", properties: {} }),
      execute: async () => "12:00",
    });
    const result = streamText({
      model,
      prompt: "What time is it?",
      tools: { clock },
      stopWhen: stepCountIs(3),
      telemetry: { integrations: recording },
    });
    assert.equal(await result.text, "It is noon.");
    await recording.close();
    const { run, events } = await readBack(recording.lastRun!);
    assert.equal(run.status, "completed");
    assert.deepEqual(kinds(events), [
      "agent_start",
      "llm_request",
      "llm_response",
      "tool_call_start",
      "tool_call_end",
      "llm_request",
      "llm_response",
      "agent_end",
    ]);
    assert.deepEqual(
      events.filter((e) => e.kind === "llm_request").map((e) => e.attrs.stream),
      [true, true],
    );
    assert.equal(
      (events[0]!.attrs.spanAttributes as Record<string, unknown>)["harnessx.ai_sdk.operation"],
      "ai.streamText",
    );
    assert.equal(events.at(-1)!.attrs.outputTokens, 12);
  });
});
