// Real OpenAI Agents SDK runs (the SDK's Runner, real tool() and handoff, input guardrails)
// with a scripted Model, recorded through recordOpenAIAgents: what the recorder's and the CLI's
// tests read back. The model does what the SDK's own models do for tracing: it wraps each call
// in withGenerationSpan (as OpenAIChatCompletionsModel and the AI SDK adapter do) and puts
// model, settings, input, output and usage on it, the content only when the run traces
// sensitive data (request.tracing === true).
import {
  Agent,
  Runner,
  Usage,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  withGenerationSpan,
  type Model,
  type ModelRequest,
  type ModelResponse,
} from "@openai/agents";
import { z } from "zod";
import {
  recordOpenAIAgents,
  type OpenAIAgentsRecording,
  type RecordOpenAIAgentsOptions,
} from "../frameworks/openai-agents/openai-agents-recording.js";

/** What a recorded weather run is made of: two weather calls, a handoff to the writer, its answer. */
export const AGENTS_WEATHER_RUN = {
  model: "scripted-weather-model",
  input: "What should I wear in Oslo and Bergen?",
  answer: "Take a raincoat: it rains in Oslo and Bergen.",
  /** Tokens of the four model calls; the later ones read 100 tokens from the cache. */
  usage: [
    { input: 120, output: 30, cacheRead: 0 },
    { input: 260, output: 25, cacheRead: 100 },
    { input: 330, output: 9, cacheRead: 100 },
    { input: 400, output: 12, cacheRead: 100 },
  ],
} as const;

/** How a weather run goes: a secret in a tool call's arguments, a failing tool, a failing model, a tripped guardrail, usage only on turn spans. */
export interface AgentsWeatherRunOptions {
  secret?: string;
  failingTool?: boolean;
  modelError?: Error;
  tripwire?: boolean;
  /** The model puts no usage on its span (as the Responses model without sensitive data): the turn's usage stands in. */
  usageOnTurnsOnly?: boolean;
  /** The planner calls the writer as a tool (`ask_writer`, an agent run inside the tool) instead of handing off to it. */
  writerAsTool?: boolean;
  /** Called as the weather tool runs, with the city. */
  onWeather?: (city: string) => void;
}

const call = (callId: string, name: string, args: Record<string, unknown>) => ({
  type: "function_call" as const,
  callId,
  name,
  arguments: JSON.stringify(args),
  status: "completed" as const,
});

/** A Model answering from a script, traced as the SDK's own models trace. */
class ScriptedAgentsModel implements Model {
  private calls = 0;
  constructor(private readonly options: AgentsWeatherRunOptions) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    // Under the current span (the runner's turn), as a model outside the SDK's own packages sees it.
    return withGenerationSpan(async (span) => {
      const turn = this.calls++;
      span.spanData.model = AGENTS_WEATHER_RUN.model;
      span.spanData.model_config = { temperature: request.modelSettings.temperature, provider: "scripted" };
      if (request.tracing === true)
        span.spanData.input = [
          ...(request.systemInstructions ? [{ role: "system", content: request.systemInstructions }] : []),
          ...(typeof request.input === "string" ? [{ role: "user", content: request.input }] : request.input),
        ];
      if (this.options.modelError && turn === 1) throw this.options.modelError;
      const output = this.script(turn);
      const { input, output: out, cacheRead } = AGENTS_WEATHER_RUN.usage[Math.min(turn, 3)];
      if (request.tracing === true) span.spanData.output = output;
      if (!this.options.usageOnTurnsOnly)
        span.spanData.usage = {
          input_tokens: input,
          output_tokens: out,
          input_tokens_details: { cached_tokens: cacheRead },
        };
      const usage = new Usage({
        requests: 1,
        inputTokens: input,
        outputTokens: out,
        totalTokens: input + out,
        inputTokensDetails: [{ cached_tokens: cacheRead }],
      });
      return { usage, output, responseId: `resp-${turn + 1}` };
    });
  }

  // biome-ignore lint/correctness/useYield: a generator, so the error comes at the first next() as a stream's would, not at the call
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("the scripted model answers getResponse only");
  }

  private script(turn: number): ModelResponse["output"] {
    if (turn === 0)
      return [
        call("call-oslo", "weather", { city: "Oslo", ...(this.options.secret ? { apiKey: this.options.secret } : {}) }),
      ];
    if (turn === 1) return [call("call-bergen", "weather", { city: "Bergen" })];
    if (turn === 2)
      return [
        this.options.writerAsTool
          ? call("call-writer", "ask_writer", { input: "Advise on rain." })
          : call("call-handoff", "transfer_to_writer", {}),
      ];
    return [
      {
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: AGENTS_WEATHER_RUN.answer }],
      },
    ];
  }
}

/**
 * Makes one weather run with the SDK's Runner (planner: a `weather` tool and a handoff to the
 * writer, an input guardrail) and records it with `recordOpenAIAgents(options)`, which is made
 * the only trace processor (the SDK's default one would send to OpenAI). Resolves with the run
 * id, the answer (or the error the SDK threw) and the recording, already closed.
 */
export async function recordAgentsWeatherRun(
  options: RecordOpenAIAgentsOptions,
  run: AgentsWeatherRunOptions = {},
): Promise<{ runId: string; text?: string; error?: unknown; recording: OpenAIAgentsRecording }> {
  const model = new ScriptedAgentsModel(run);
  const weather = tool({
    name: "weather",
    description: "The weather of a city today.",
    parameters: z.object({ city: z.string(), apiKey: z.string().nullable().optional() }),
    execute: async ({ city }) => {
      run.onWeather?.(city);
      if (run.failingTool && city === "Bergen") throw new Error("weather service unavailable for Bergen");
      return { city, sky: "rain", celsius: 7 };
    },
  });
  const writer = new Agent({ name: "writer", instructions: "Write the advice.", model });
  const planner = new Agent({
    name: "planner",
    instructions: "You advise on clothes.",
    model,
    tools: run.writerAsTool
      ? [weather, writer.asTool({ toolName: "ask_writer", toolDescription: "Asks the writer." })]
      : [weather],
    handoffs: run.writerAsTool ? [] : [writer],
    inputGuardrails: [
      { name: "on-topic", execute: async () => ({ tripwireTriggered: run.tripwire === true, outputInfo: {} }) },
    ],
  });
  const recording = recordOpenAIAgents(options);
  setTracingDisabled(false);
  setTraceProcessors([recording]);
  try {
    const result = await new Runner({ workflowName: "weather advice" }).run(planner, AGENTS_WEATHER_RUN.input);
    return { runId: (await settled(recording)).lastRun!, text: String(result.finalOutput), recording };
  } catch (error) {
    return { runId: (await settled(recording)).lastRun!, error, recording };
  } finally {
    setTraceProcessors([]);
    await recording.close();
  }
}

async function settled(recording: OpenAIAgentsRecording): Promise<OpenAIAgentsRecording> {
  await recording.forceFlush();
  return recording;
}
