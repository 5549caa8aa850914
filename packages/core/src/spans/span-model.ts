import type { RunResult } from "../engine/run-types.js";
import type { HookEvent } from "../hooks/events.js";
import type { AgentStartData, HookContext, HookPayloads, LlmRequestData, LlmResponseData, ToolCallEndData } from "../hooks/payloads.js";
import type { ToolCall } from "../types/content.js";
import type { SpanContext, SpanRole } from "./span-context.js";
import type { SpanKindName } from "./span-names.js";

/** A value OpenTelemetry accepts as a span attribute. */
export type AttributeValue = string | number | boolean | string[] | number[] | boolean[];
export type Attributes = Record<string, AttributeValue>;

/**
 * One hook event as the mapping reads it: live from a hook context or from a recording (whose
 * payloads went through JSON: errors are plain objects).
 */
export type TraceEvent = {
  [E in HookEvent]: {
    kind: E;
    /** Milliseconds since the epoch (fractions allowed). */
    ts: number;
    runId: string | undefined;
    /** The span the event belongs to, as core stamped it (absent in recordings made before span identity). */
    span?: SpanContext;
    data: HookPayloads[E];
  };
}[HookEvent];

/** A hook context as the mapping's input, stamped with `ts` (milliseconds since the epoch). */
export function traceEventOf<E extends HookEvent>(hook: HookContext<E>, ts: number): TraceEvent {
  // A HookContext<E> pairs its event and payload as TraceEvent does; TypeScript cannot follow
  // that correlation through a generic, so the pairing is asserted here, once.
  // Two literals rather than a spread: this runs for every traced hook event.
  return (hook.span ? { kind: hook.event, ts, runId: hook.runId, span: hook.span, data: hook.data } : { kind: hook.event, ts, runId: hook.runId, data: hook.data }) as TraceEvent;
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
  /** The span's identity from core (the ids every reader and exporter shows), when the event carried it. */
  span?: SpanContext;
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
