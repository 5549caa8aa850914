import type { HostedModelCall, HostedRun, HostedToolCall, RunHost } from "@harnessx/core";
import { FlightRecorderExtension } from "../../recording/flight-recorder.js";
import { frameworkRecording, type FrameworkRecordingOptions } from "../framework-recording.js";
import type {
  AiSdkAbortEvent,
  AiSdkEndEvent,
  AiSdkExecuteTool,
  AiSdkModelCallEndEvent,
  AiSdkModelCallStartEvent,
  AiSdkStartEvent,
  AiSdkToolEndEvent,
  AiSdkToolStartEvent,
} from "./ai-sdk-events.js";
import { errorText, inputText, modelRequest, outputText, providerResponse, toolInput } from "./ai-sdk-mapping.js";

/** The framework name recorded on AI SDK runs (`harnessx.framework`). */
export const AI_SDK_FRAMEWORK = "ai-sdk";

/** The operations recorded as runs; embeddings, reranking and the like are not agent runs. */
const TEXT_OPERATIONS = new Set(["ai.generateText", "ai.streamText"]);

/** How `recordAiSdk` records: see `FrameworkRecordingOptions` (the default `name` is `ai-sdk`). */
export type RecordAiSdkOptions = FrameworkRecordingOptions;

/** One `generateText` / `streamText` call being recorded. */
interface OpenCall {
  run: HostedRun;
  stream: boolean;
  model: HostedModelCall | undefined;
  tools: Map<string, HostedToolCall>;
}

/**
 * An AI SDK 7 telemetry integration that records each `generateText` / `streamText` call as a
 * harnessx run: pass it as `telemetry: { integrations: recording }` (or `experimental_telemetry`).
 * The call is the run (input, answer, status); each model call is an `LLM_REQUEST`/`LLM_RESPONSE`
 * pair (model, provider, messages, usage with cache tokens, finish reason, response id); each
 * tool execution a `TOOL_CALL_START`/`TOOL_CALL_END` (name, id, arguments, result or error); a
 * failed call an `ERROR` and a failed run. Everything goes through the recorder's normal path:
 * the agent's redaction, content capture, spans and tables. Its callbacks never throw.
 */
export class AiSdkRecording {
  /** The recorder the runs are written with. */
  readonly recorder: FlightRecorderExtension;
  /** The host the runs are reported through (its `info`, `redactor`). */
  readonly host: RunHost;
  private readonly calls = new Map<string, OpenCall>();
  private lastRunId: string | undefined;

  constructor(options: RecordAiSdkOptions = {}) {
    ({ recorder: this.recorder, host: this.host } = frameworkRecording(AI_SDK_FRAMEWORK, options));
  }

  /** The run most recently started. */
  get lastRun(): string | undefined {
    return this.lastRunId;
  }

  /** Writes what the recorder holds (the runs that ended are on disk after it). */
  flush(): Promise<void> {
    return this.recorder.flush();
  }

  /** Closes the host: the recorder writes everything; calls still running are recorded as incomplete. */
  close(): Promise<void> {
    return this.host.close();
  }

  /** A `generateText` / `streamText` call starts: its run starts (`AGENT_START`, with `harnessx.framework`). Other operations are not runs. */
  async onStart(event: AiSdkStartEvent): Promise<void> {
    if (!TEXT_OPERATIONS.has(event.operationId)) return;
    await this.guard(async () => {
      const attributes = {
        "harnessx.ai_sdk.operation": event.operationId,
        ...(event.functionId ? { "harnessx.ai_sdk.function_id": event.functionId } : {}),
      };
      const run = await this.host.startRun({ input: inputText(event), model: event.modelId, attributes, ...at(event) });
      this.calls.set(event.callId, {
        run,
        stream: event.operationId === "ai.streamText",
        model: undefined,
        tools: new Map(),
      });
      this.lastRunId = run.runId;
    });
  }

  /** A model call is sent: `LLM_REQUEST` with the request in harnessx's form. */
  async onLanguageModelCallStart(event: AiSdkModelCallStartEvent): Promise<void> {
    const call = this.calls.get(event.callId);
    if (!call) return;
    await this.guard(async () => {
      call.model = await call.run.startModelCall({ request: modelRequest(event, call.stream), ...at(event) });
    });
  }

  /** The model answered: `LLM_RESPONSE` with the reply, usage and finish reason, priced. */
  async onLanguageModelCallEnd(event: AiSdkModelCallEndEvent): Promise<void> {
    const call = this.calls.get(event.callId);
    const model = call?.model;
    if (!call || !model) return;
    call.model = undefined;
    await this.guard(() => model.end({ response: providerResponse(event), ...at(event) }).then(() => undefined));
  }

  /** A tool's `execute` is about to run: `TOOL_CALL_START` with its arguments. */
  async onToolExecutionStart(event: AiSdkToolStartEvent): Promise<void> {
    const call = this.calls.get(event.callId);
    if (!call) return;
    const { toolCallId, toolName, input } = event.toolCall;
    await this.guard(async () => {
      const toolCall = { id: toolCallId, name: toolName, input: event.recordInputs === false ? {} : toolInput(input) };
      call.tools.set(toolCallId, await call.run.startToolCall({ toolCall, ...at(event) }));
    });
  }

  /** The tool returned or threw: `TOOL_CALL_END` with its result, or its error as a failed call. */
  async onToolExecutionEnd(event: AiSdkToolEndEvent): Promise<void> {
    const call = this.calls.get(event.callId);
    const tool = call?.tools.get(event.toolCall.toolCallId);
    if (!call || !tool) return;
    call.tools.delete(event.toolCall.toolCallId);
    const { type, output, error } = event.toolOutput;
    const failed = type === "tool-error";
    const keep = event.recordOutputs !== false;
    const content = !keep ? "" : failed ? errorText(error) : outputText(output);
    await this.guard(() =>
      tool.end({ content, isError: failed, ...(keep && !failed ? { rawResult: output } : {}), ...at(event) }),
    );
  }

  /** Runs the tool inside its span's scope, so a harnessx agent the tool runs nests under it. */
  executeTool<T>(options: AiSdkExecuteTool<T>): PromiseLike<T> {
    const call = this.calls.get(options.callId);
    const tool = call?.tools.get(options.toolCallId);
    return call && tool ? call.run.within(tool.span, () => options.execute()) : options.execute();
  }

  /** The call finished: the run completes with the final text. */
  async onEnd(event: AiSdkEndEvent): Promise<void> {
    await this.finish(event.callId, {
      status: "completed",
      text: event.recordOutputs === false ? "" : (event.text ?? ""),
      ...at(event),
    });
  }

  /** A streaming call was aborted: the run is cancelled. */
  async onAbort(event: AiSdkAbortEvent): Promise<void> {
    await this.finish(event.callId, {
      status: "cancelled",
      text: "",
      ...(event.reason !== undefined ? { error: event.reason } : {}),
      ...at(event),
    });
  }

  /** A failed call (the AI SDK passes `{ callId, error }`): an `ERROR` on the run, which fails; an open model call ends failed with it. */
  async onError(event: unknown): Promise<void> {
    const { callId, error } = (event ?? {}) as { callId?: unknown; error?: unknown };
    if (typeof callId !== "string") return;
    await this.finish(callId, { status: "failed", text: "", error: error ?? new Error("the AI SDK call failed") });
  }

  private async finish(callId: string, end: Parameters<HostedRun["end"]>[0]): Promise<void> {
    const call = this.calls.get(callId);
    if (!call) return;
    this.calls.delete(callId);
    await this.guard(() => call.run.end(end).then(() => undefined));
  }

  /** A failure of the recording itself never reaches the AI SDK call; the recorder reports its own. */
  private async guard(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch {
      // RunHost turns observer and extension failures into ERROR events; nothing else is expected here.
    }
  }
}

/** The event's own time when it was reported after the fact (durable runs); else now. */
function at(event: { timestamp?: number }): { at?: number } {
  return typeof event.timestamp === "number" ? { at: event.timestamp } : {};
}

/**
 * Records AI SDK 7 runs into the harnessx store: the returned integration goes in
 * `generateText({ ..., telemetry: { integrations: recording } })`. Pass a recorder, its options,
 * or `RecordAiSdkOptions`; `close()` it when done.
 */
export function recordAiSdk(options: RecordAiSdkOptions | FlightRecorderExtension = {}): AiSdkRecording {
  return new AiSdkRecording(options instanceof FlightRecorderExtension ? { recorder: options } : options);
}
