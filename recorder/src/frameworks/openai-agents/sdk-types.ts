// The parts of the OpenAI Agents SDK's tracing API the recording reads, as structural types: the
// recorder must not need `@openai/agents` at run time, nor in its published types, yet
// `addTraceProcessor(recording)` must type-check against the SDK's own `TracingProcessor`.

/** A trace as the SDK hands it to a processor (`Trace`): one workflow, one or more runs. */
export interface AgentsSdkTrace {
  /** The SDK's trace id (`trace_...`). */
  readonly traceId: string;
  /** The workflow name (`RunConfig.workflowName`, default `Agent workflow`). */
  readonly name: string;
  /** The conversation group (`RunConfig.groupId`), or null. */
  readonly groupId: string | null;
}

/** What went wrong in a span (`SpanError`). */
export interface AgentsSdkSpanError {
  /** What went wrong, in words (`Error in agent run`, the thrown error's message...). */
  readonly message: string;
  /** More about it (`error`: the cause's text when the run traces sensitive data; `tool_name`...). */
  readonly data?: Record<string, unknown>;
}

/** A span's data: `type` says which (agent, task, turn, generation, response, function, handoff, guardrail...). */
export interface AgentsSdkSpanData {
  /** Which kind of span: `task`, `agent`, `turn`, `generation`, `response`, `function`, `handoff`, `guardrail`, `custom`... */
  readonly type: string;
}

/** A span as the SDK hands it to a processor (`Span`); times are ISO strings. */
export interface AgentsSdkSpan {
  /** The SDK's span id (`span_...`). */
  readonly spanId: string;
  /** The id of the trace it belongs to. */
  readonly traceId: string;
  /** The id of the span it sits under; null for a span directly under the trace. */
  readonly parentId: string | null;
  /** What the span is about; its `type` says which fields it has. */
  readonly spanData: AgentsSdkSpanData;
  /** When it started (ISO time); null before. */
  readonly startedAt: string | null;
  /** When it ended (ISO time); null before. */
  readonly endedAt: string | null;
  /** What went wrong in it, or null. */
  readonly error: AgentsSdkSpanError | null;
}

/** The processor contract (`TracingProcessor`), which `OpenAIAgentsRecording` implements. */
export interface AgentsSdkTracingProcessor {
  /** A trace (a workflow) started. */
  onTraceStart(trace: AgentsSdkTrace): Promise<void>;
  /** A trace ended. */
  onTraceEnd(trace: AgentsSdkTrace): Promise<void>;
  /** A span started. */
  onSpanStart(span: AgentsSdkSpan): Promise<void>;
  /** A span ended, its data complete. */
  onSpanEnd(span: AgentsSdkSpan): Promise<void>;
  /** The SDK is shutting down (at process exit). */
  shutdown(timeout?: number): Promise<void>;
  /** Everything received so far should be written. */
  forceFlush(): Promise<void>;
}

/** Reads a field of span data the SDK types per span kind; anything unexpected reads as absent. */
export function field(data: AgentsSdkSpanData, name: string): unknown {
  return (data as unknown as Record<string, unknown>)[name];
}

/** A string field, or undefined. */
export function stringField(data: AgentsSdkSpanData, name: string): string | undefined {
  const value = field(data, name);
  return typeof value === "string" ? value : undefined;
}

/** A span time in ms since the epoch (the SDK stamps ISO strings), or undefined when unset or unreadable. */
export function timeOf(iso: string | null): number | undefined {
  if (iso === null) return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : undefined;
}
