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
  readonly message: string;
  readonly data?: Record<string, unknown>;
}

/** A span's data: `type` says which (agent, task, turn, generation, response, function, handoff, guardrail...). */
export interface AgentsSdkSpanData {
  readonly type: string;
}

/** A span as the SDK hands it to a processor (`Span`); times are ISO strings. */
export interface AgentsSdkSpan {
  readonly spanId: string;
  readonly traceId: string;
  readonly parentId: string | null;
  readonly spanData: AgentsSdkSpanData;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly error: AgentsSdkSpanError | null;
}

/** The processor contract (`TracingProcessor`), which `OpenAIAgentsRecording` implements. */
export interface AgentsSdkTracingProcessor {
  onTraceStart(trace: AgentsSdkTrace): Promise<void>;
  onTraceEnd(trace: AgentsSdkTrace): Promise<void>;
  onSpanStart(span: AgentsSdkSpan): Promise<void>;
  onSpanEnd(span: AgentsSdkSpan): Promise<void>;
  shutdown(timeout?: number): Promise<void>;
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
