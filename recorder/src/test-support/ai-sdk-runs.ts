// Real AI SDK 7 runs (generateText with the SDK's own mock language model and real tools)
// recorded through recordAiSdk: what the recorder's and the CLI's tests read back. `ai` 7 is a
// devDependency of the recorder, so the runs are made here (test/ pins an older `ai` for its bench).
import { generateText, jsonSchema, stepCountIs, tool, type LanguageModelUsage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { recordAiSdk, type AiSdkRecording, type RecordAiSdkOptions } from "../frameworks/ai-sdk/record-ai-sdk.js";

type MockResult = Exclude<ConstructorParameters<typeof MockLanguageModelV4>[0], undefined>["doGenerate"];
type GenerateResult = Extract<MockResult, unknown[]>[number];

/** What a recorded weather run is made of: two tool-calling steps then an answer. */
export const WEATHER_RUN = {
  model: "mock-weather-model",
  provider: "mock-provider",
  input: "What should I wear in Oslo and Bergen?",
  answer: "Take a raincoat: it rains in Oslo and Bergen.",
  /** Input and output tokens of the three model calls; the second and third read 100 tokens from the cache. */
  usage: [
    { input: 120, output: 30, cacheRead: 0 },
    { input: 260, output: 25, cacheRead: 100 },
    { input: 400, output: 12, cacheRead: 100 },
  ],
} as const;

const usage = (input: number, output: number, cacheRead: number) => ({
  inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

const toolCall = (id: string, city: string, apiKey?: string): GenerateResult["content"][number] => ({
  type: "tool-call",
  toolCallId: id,
  toolName: "weather",
  input: JSON.stringify({ city, ...(apiKey ? { apiKey } : {}) }),
});

/** How a weather run goes: a secret in the first tool call's arguments, a failing tool, a model that fails. */
export interface WeatherRunOptions {
  secret?: string;
  failingTool?: boolean;
  modelError?: Error;
  /** The call's own telemetry settings: whether the AI SDK lets integrations record inputs and outputs. */
  record?: { inputs?: boolean; outputs?: boolean };
}

/**
 * Makes one weather run with `generateText` (3 steps, `stopWhen: stepCountIs(3)`, a real `tool()`)
 * and records it with `recordAiSdk(options)`. Resolves with the run id, the AI SDK's answer (or
 * the error it threw) and the recording, already closed.
 */
export async function recordWeatherRun(
  options: RecordAiSdkOptions,
  run: WeatherRunOptions = {},
): Promise<{
  runId: string;
  text?: string;
  error?: unknown;
  recording: AiSdkRecording;
  totalUsage?: LanguageModelUsage;
}> {
  const [first, second, third] = WEATHER_RUN.usage;
  const replies: GenerateResult[] = [
    {
      content: [toolCall("call-oslo", "Oslo", run.secret)],
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      usage: usage(first.input, first.output, first.cacheRead),
      warnings: [],
      response: { id: "resp-1" },
    },
    {
      content: [toolCall("call-bergen", "Bergen")],
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      usage: usage(second.input, second.output, second.cacheRead),
      warnings: [],
      response: { id: "resp-2" },
    },
    {
      content: [{ type: "text", text: WEATHER_RUN.answer }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: usage(third.input, third.output, third.cacheRead),
      warnings: [],
      response: { id: "resp-3" },
    },
  ];
  let calls = 0;
  const model = new MockLanguageModelV4({
    provider: WEATHER_RUN.provider,
    modelId: WEATHER_RUN.model,
    doGenerate: async () => {
      const reply = replies[calls++];
      if (run.modelError && calls === 2) throw run.modelError;
      return reply;
    },
  });
  const weather = tool({
    description: "The weather of a city today.",
    inputSchema: jsonSchema<{ city: string; apiKey?: string }>({
      type: "object",
      properties: { city: { type: "string" }, apiKey: { type: "string" } },
      required: ["city"],
    }),
    execute: async ({ city }) => {
      if (run.failingTool && city === "Bergen") throw new Error("weather service unavailable for Bergen");
      return { city, sky: "rain", celsius: 7 };
    },
  });
  const recording = recordAiSdk(options);
  try {
    const result = await generateText({
      model,
      system: "You advise on clothes.",
      prompt: WEATHER_RUN.input,
      tools: { weather },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      telemetry: {
        integrations: recording,
        ...(run.record?.inputs === false ? { recordInputs: false } : {}),
        ...(run.record?.outputs === false ? { recordOutputs: false } : {}),
      },
    });
    return { runId: recording.lastRun!, text: result.text, recording, totalUsage: result.totalUsage };
  } catch (error) {
    return { runId: recording.lastRun!, error, recording };
  } finally {
    await recording.close();
  }
}
