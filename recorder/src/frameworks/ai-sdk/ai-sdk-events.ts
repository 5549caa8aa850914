// The parts of the AI SDK 7 telemetry events (`Telemetry` integrations of `telemetry` /
// `experimental_telemetry`) the recording reads, as structural types: the recorder does not
// depend on `ai` at runtime or in its published types. Every AI SDK event is assignable to these
// (checked by the record-ai-sdk*.test.ts files, which pass the recording as `integrations`).

/** A message part as the AI SDK's `ModelMessage` content holds it (the fields read here). */
export interface AiSdkPart {
  readonly type: string;
  readonly text?: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly mediaType?: string;
}

/** An AI SDK `ModelMessage`: a role and a string or parts. */
export interface AiSdkMessage {
  readonly role: string;
  readonly content: string | ReadonlyArray<AiSdkPart>;
}

/** Instructions: a string or system messages. */
export type AiSdkInstructions = string | AiSdkMessage | ReadonlyArray<AiSdkMessage> | undefined;

/** What every event of one `generateText` / `streamText` call carries. */
export interface AiSdkCallEvent {
  /** Unique per call: correlates the events of one run. */
  readonly callId: string;
  /** Set when the event is reported after it happened (durable runs); ms since the epoch. */
  readonly timestamp?: number;
  /** False when the call asked telemetry not to record its inputs. */
  readonly recordInputs?: boolean;
  /** False when the call asked telemetry not to record its outputs. */
  readonly recordOutputs?: boolean;
  /** The call's `functionId`: the run's agent name when given. */
  readonly functionId?: string;
}

/** `onStart`: an operation begins (`ai.generateText`, `ai.streamText`, embeddings...). */
export interface AiSdkStartEvent extends AiSdkCallEvent {
  readonly operationId: string;
  readonly provider: string;
  readonly modelId: string;
  readonly instructions?: AiSdkInstructions;
  readonly messages?: ReadonlyArray<AiSdkMessage>;
}

/** `onLanguageModelCallStart`: a model call is about to be sent. */
export interface AiSdkModelCallStartEvent extends AiSdkCallEvent {
  readonly provider: string;
  readonly modelId: string;
  readonly instructions: AiSdkInstructions;
  readonly messages: ReadonlyArray<AiSdkMessage>;
  readonly tools: ReadonlyArray<Record<string, unknown>> | undefined;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
}

/** The AI SDK's `LanguageModelUsage` (the fields read here). */
export interface AiSdkUsage {
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  readonly inputTokenDetails?: {
    readonly cacheReadTokens: number | undefined;
    readonly cacheWriteTokens: number | undefined;
  };
}

/** `onLanguageModelCallEnd`: the model answered. */
export interface AiSdkModelCallEndEvent extends AiSdkCallEvent {
  readonly provider: string;
  readonly modelId: string;
  readonly finishReason: string;
  readonly usage: AiSdkUsage;
  readonly content: ReadonlyArray<AiSdkPart>;
  readonly responseId: string;
}

/** The tool call of a tool execution event. */
export interface AiSdkToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/** `onToolExecutionStart`: a tool's `execute` is about to run. */
export interface AiSdkToolStartEvent extends AiSdkCallEvent {
  readonly toolCall: AiSdkToolCall;
}

/** `onToolExecutionEnd`: the tool returned (`tool-result`) or threw (`tool-error`). */
export interface AiSdkToolEndEvent extends AiSdkCallEvent {
  readonly toolCall: AiSdkToolCall;
  readonly toolOutput: { readonly type: string; readonly output?: unknown; readonly error?: unknown };
}

/** `onEnd` of a text generation (other operations' ends carry no `text`). */
export interface AiSdkEndEvent extends AiSdkCallEvent {
  readonly text?: string;
}

/** `onStepError`, `onError`: a step or the whole call failed. */
export interface AiSdkErrorEvent {
  readonly callId?: string;
  readonly error?: unknown;
}

/** `onAbort`: a streaming call was aborted. */
export interface AiSdkAbortEvent extends AiSdkCallEvent {
  readonly reason?: unknown;
}

/** What `executeTool` receives: the tool's call and the function that runs it. */
export interface AiSdkExecuteTool<T> {
  readonly callId: string;
  readonly toolCallId: string;
  readonly execute: () => PromiseLike<T>;
}
