import type { RunResult } from "../engine/run-types.js";
import type { HookEvent } from "../hooks/events.js";
import type {
  AgentStartData,
  HookContext,
  HookPayloads,
  LlmRequestData,
  LlmResponseData,
  ToolCallEndData,
} from "../hooks/payloads.js";
import type { ToolCall } from "../types/content.js";
import type { SpanContext, SpanRole } from "./span-context.js";
import type { SpanKindName } from "./span-names.js";

/** A value OpenTelemetry accepts as a span attribute. */
export type AttributeValue = string | number | boolean | string[] | number[] | boolean[];
/** Span attributes by name (see `GenAI` and `Hx` for the names the mapping writes). */
export type Attributes = Record<string, AttributeValue>;

/**
 * One hook event as the mapping reads it: live from a hook context or from a recording (whose
 * payloads went through JSON: errors are plain objects).
 */
export type TraceEvent = {
  [E in HookEvent]: {
    /** The hook event's name; checking it narrows `data`. */
    kind: E;
    /** Milliseconds since the epoch (fractions allowed). */
    ts: number;
    /** Id of the run the event belongs to; undefined outside a run (the mapping skips such events). */
    runId: string | undefined;
    /** The span the event belongs to, as core stamped it (absent in recordings made before span identity). */
    span?: SpanContext;
    /** The event's payload. */
    data: HookPayloads[E];
  };
}[HookEvent];

/** A hook context as the mapping's input, stamped with `ts` (milliseconds since the epoch). */
export function traceEventOf<E extends HookEvent>(hook: HookContext<E>, ts: number): TraceEvent {
  // A HookContext<E> pairs its event and payload as TraceEvent does; TypeScript cannot follow
  // that correlation through a generic, so the pairing is asserted here, once.
  // Two literals rather than a spread: this runs for every traced hook event.
  return (
    hook.span
      ? { kind: hook.event, ts, runId: hook.runId, span: hook.span, data: hook.data }
      : { kind: hook.event, ts, runId: hook.runId, data: hook.data }
  ) as TraceEvent;
}

/** Facts about the agent that no single event carries. */
export interface TracedAgent {
  /** The agent's name (`gen_ai.agent.name`, and the run span's name). */
  name: string;
  /** The session id (`gen_ai.conversation.id`); absent leaves the attribute out. */
  sessionId?: string;
  /** The provider's name (`gen_ai.provider.name`), when known before its first reply. */
  provider?: string;
}

/** A reference to a tool result the spill extension stored instead of passing it on. */
export interface SpillReference {
  /** The id the model reads the stored result by (`harnessx.result.id`). */
  resultId: string;
  /** Size of the stored content, in bytes (`harnessx.result.bytes`). */
  bytes: number;
}

/** The raw material behind a span, for sinks that render their own format (LangSmith, Chrome trace). */
export type SpanDetail =
  | {
      /** A run's span (`invoke_agent`). */
      role: "agent";
      /** The run's first `AGENT_START` payload. */
      start: AgentStartData;
      /** The run's result; absent while the run is open, or when its span was closed before it ended. */
      result?: RunResult;
    }
  | {
      /** A model call's span (`chat`). */
      role: "chat";
      /** The call's `LLM_REQUEST` payload. */
      request: LlmRequestData;
      /** The call's `LLM_RESPONSE` payload; absent until the reply, and when the call failed or was cut off. */
      response?: LlmResponseData;
    }
  | {
      /** A tool call's span (`execute_tool`). */
      role: "tool";
      /** The tool call: its id, name and input. */
      toolCall: ToolCall;
      /** The call's `TOOL_CALL_END` payload; absent until it ends, and when the run ended first. */
      end?: ToolCallEndData;
      /** Set when the result was spilled: stored aside, shown by reference. */
      spill?: SpillReference;
    };

/** Why a span failed. */
export interface SpanError {
  /** Low-cardinality class of the failure (`error.type`). */
  type: string;
  /** What went wrong, in words (collectors pass it through the redaction policy). */
  message: string;
}

/** What a sink needs to start a span. */
export interface SpanOpen {
  /** What the span stands for: a run, a model call or a tool call. */
  role: SpanRole;
  /** `invoke_agent <agent>`, `chat <model>` or `execute_tool <tool>`. */
  name: string;
  /** `CLIENT` for a model call, `INTERNAL` otherwise. */
  kind: SpanKindName;
  /** Start time in ms since the epoch (a refused tool call's is its end minus its duration). */
  time: number;
  /** The span's identity from core (the ids every reader and exporter shows), when the event carried it. */
  span?: SpanContext;
  /** Set at creation: the ones sampling decisions need are all here. */
  attributes: Attributes;
  /** What the span is made from, for sinks that render their own format. */
  detail: SpanDetail;
}

/** What a sink needs to end a span. */
export interface SpanClose {
  /** End time in ms since the epoch. */
  time: number;
  /** Attributes known only at the end (usage, finish reason, outcome, status), added to those set at open. */
  attributes: Attributes;
  /** Set when the span failed: a failed or cancelled run, a tool error, a model call that errored or was cut off. */
  error?: SpanError;
  /** The span's material, completed with what ended it (result, reply, end payload). */
  detail: SpanDetail;
}

/** A timestamped event on a span: a retry, recovery, condensing, denial, error or resume. */
export interface SpanEventSpec {
  /** The event's name, one of the `Hx.EVENT_*` names. */
  name: string;
  /** When it happened, in ms since the epoch. */
  time: number;
  /** The event's details (e.g. `harnessx.retry.attempt`). */
  attributes: Attributes;
}

/**
 * Where the mapping's spans go: the OpenTelemetry API (live), an in-memory
 * list (converters) or LangSmith run trees. `H` is the sink's span handle.
 */
export interface SpanSink<H> {
  /** `parent` is undefined for a run's root span. */
  open(span: SpanOpen, parent: H | undefined): H;
  /** Adds an event to an open span. */
  event(handle: H, event: SpanEventSpec): void;
  /** Ends an open span; the mapping closes each span at most once. */
  close(handle: H, close: SpanClose): void;
}
