import type { HookEvent, LlmRequestData, LlmResponseData, ToolCall, ToolCallEndData, AgentStartData, RunResult } from "@harnessx/core";

/** A value OpenTelemetry accepts as a span attribute. */
export type AttributeValue = string | number | boolean | string[] | number[] | boolean[];
export type Attributes = Record<string, AttributeValue>;

/** What kind of operation a span stands for. */
export type SpanRole = "agent" | "chat" | "tool";

/** `INTERNAL` for in-process work (agent, tool), `CLIENT` for a model call. */
export type SpanKindName = "INTERNAL" | "CLIENT";

/** One hook event as the mapping reads it: live from a hook context or from a recording. */
export interface TraceEvent {
  kind: HookEvent;
  /** Milliseconds since the epoch (fractions allowed). */
  ts: number;
  runId: string | undefined;
  /** The hook payload; recorded payloads went through JSON (errors are plain objects). */
  data: unknown;
}

/** Facts about the agent that no single event carries. */
export interface TracedAgent {
  name: string;
  sessionId?: string;
  /** The provider's name (`gen_ai.provider.name`), when known before its first reply. */
  provider?: string;
}

/** A reference to a tool result the spill extension stored instead of passing it on. */
export interface SpillReference {
  resultId: string;
  bytes: number;
}

/** The raw material behind a span, for sinks that render their own format (LangSmith, Chrome trace). */
export type SpanDetail =
  | { role: "agent"; start: AgentStartData; result?: RunResult }
  | { role: "chat"; request: LlmRequestData; response?: LlmResponseData }
  | { role: "tool"; toolCall: ToolCall; end?: ToolCallEndData; spill?: SpillReference };

export interface SpanError {
  /** Low-cardinality class of the failure (`error.type`). */
  type: string;
  message: string;
}

export interface SpanOpen {
  role: SpanRole;
  name: string;
  kind: SpanKindName;
  time: number;
  /** Set at creation: the ones sampling decisions need are all here. */
  attributes: Attributes;
  detail: SpanDetail;
}

export interface SpanClose {
  time: number;
  attributes: Attributes;
  error?: SpanError;
  detail: SpanDetail;
}

export interface SpanEventSpec {
  name: string;
  time: number;
  attributes: Attributes;
}

/**
 * Where the mapping's spans go: the OpenTelemetry API (live), an in-memory
 * list (converters) or LangSmith run trees. `H` is the sink's span handle.
 */
export interface SpanSink<H> {
  /** `parent` is undefined for a run's root span. */
  open(span: SpanOpen, parent: H | undefined): H;
  event(handle: H, event: SpanEventSpec): void;
  close(handle: H, close: SpanClose): void;
}
