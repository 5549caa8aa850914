// An AI SDK 7 call made inside a tool of a recorded run is recorded as its own run, whose span
// hangs under the tool call's in the same trace.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { recordAiSdk } from "../../index.js";
import { aiSdkStore } from "../../test-support/ai-sdk-store.js";

const { store, readBack } = aiSdkStore();
type Generated = Extract<
  NonNullable<ConstructorParameters<typeof MockLanguageModelV4>[0]>["doGenerate"],
  unknown[]
>[number];

describe("a call made inside a tool nests under the tool's span", () => {
  test("generateText inside a recorded tool: its run's span hangs under the tool call's, in the same trace", async () => {
    const usage = {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 2, text: 2, reasoning: undefined },
    };
    const reply = (content: Generated["content"], unified: "tool-calls" | "stop"): Generated => ({
      content,
      finishReason: { unified, raw: undefined },
      usage,
      warnings: [],
    });
    const recording = recordAiSdk({ recorder: { dir: store.dir } });
    const inner = new MockLanguageModelV4({
      modelId: "inner-model",
      doGenerate: [reply([{ type: "text", text: "42" }], "stop")],
    });
    const outer = new MockLanguageModelV4({
      modelId: "outer-model",
      doGenerate: [
        reply([{ type: "tool-call", toolCallId: "d1", toolName: "delegate", input: "{}" }], "tool-calls"),
        reply([{ type: "text", text: "It is 42." }], "stop"),
      ],
    });
    let innerRun = "";
    let outerRun = "";
    const delegate = tool({
      description: "Asks another model.",
      inputSchema: jsonSchema<Record<string, never>>({ type: "object", properties: {} }),
      execute: async () => {
        outerRun = recording.lastRun!;
        const { text } = await generateText({
          model: inner,
          prompt: "the answer?",
          telemetry: { integrations: recording },
        });
        innerRun = recording.lastRun!;
        return text;
      },
    });
    await generateText({
      model: outer,
      prompt: "Ask the other model.",
      tools: { delegate },
      stopWhen: stepCountIs(2),
      telemetry: { integrations: recording },
    });
    await recording.close();
    const outerSpans = (await readBack(outerRun)).spans;
    const innerRoot = (await readBack(innerRun)).spans.find((s) => s.kind === "run")!;
    const toolSpan = outerSpans.find((s) => s.kind === "tool")!;
    assert.notEqual(innerRun, outerRun);
    assert.equal(innerRoot.parentSpanId, toolSpan.spanId);
    assert.equal(innerRoot.traceId, toolSpan.traceId);
  });
});
