import type { ToolCall, ToolResult, Usage } from "../types/content.js";
import type { ModelRequest, ProviderResponse, StopReason } from "../types/provider.js";
import type { RunResult } from "../engine/run-types.js";
import type { PermissionDecision } from "../permissions/decision.js";
import type { TodoItem } from "../tools/todos.js";
import type { AgentInfo } from "../engine/agent-info.js";
import type { SpanContext } from "../spans/span-context.js";
import type { CustomData } from "./custom-events.js";
import { HookEvent } from "./events.js";

/** An attribute value extensions may give the run's span (what OpenTelemetry accepts). */
export type RunAttributeValue = string | number | boolean | string[];

export interface AgentStartData {
  runId: string;
  input: string;
  model: string;
  /** True when the run continues after `resume`. */
  resumed: boolean;
  /** What extensions said of the run's span (`ctx.addRunAttributes`), e.g. the MCP servers connected. */
  attributes?: Readonly<Record<string, RunAttributeValue>>;
}
export interface AgentEndData {
  result: RunResult;
}
export interface LoopIterationData {
  iteration: number;
}
export interface LoopIterationEndData {
  iteration: number;
  toolCalls: number;
}
export interface LlmRequestData {
  system: string;
  model: string;
  maxTokens: number;
  temperature: number | undefined;
  stream: boolean;
  messageCount: number;
  toolCount: number;
  /** Stable across iterations unless the system prompt or the tool list changed. */
  prefixKey: string;
  /** The whole request as sent, after middleware. */
  request: ModelRequest;
}
export interface LlmResponseData {
  /** The raw reply, before response middleware. */
  response: ProviderResponse;
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  durationMs: number;
}
export interface ToolCallStartData {
  toolCall: ToolCall;
  permission: PermissionDecision;
  /** The tool's `spanAttributes`, when it declares some. */
  attributes?: Readonly<Record<string, string | number | boolean>>;
}
/** Why a tool call ended the way it did. */
export type ToolOutcome = "executed" | "failed" | "timeout" | "invalid_input" | "unknown_tool" | "denied";
export interface ToolCallEndData {
  toolCall: ToolCall;
  /** After result middleware: what enters the conversation (before the length cut). */
  result: ToolResult;
  /** As the handler returned it; undefined when the handler never ran. */
  rawResult: unknown;
  durationMs: number;
  outcome: ToolOutcome;
  permission?: PermissionDecision;
}
export interface RetryData {
  target: "model" | "tool";
  /** The attempt that failed, counting from 1. */
  attempt: number;
  delayMs: number;
  error: Error;
  toolCall?: ToolCall;
}
export interface ContextCondensedData {
  messagesDropped: number;
  summaryChars: number;
  /** True when a `beforeCompact` answer replaced the dropped history; false for the drop-and-mark fallback. */
  summarized: boolean;
  /** Who summarized: the extension (or middleware) whose `beforeCompact` answered. */
  summarizedBy?: string;
  /** The text that now stands for the dropped messages. */
  summary?: string;
  reason?: "budget" | "overflow";
}
export interface RepetitionData {
  period: number;
  laps: number;
  tool: string;
}
export type ErrorSource =
  | "hook"
  | "middleware"
  | "tool"
  | "provider"
  | "policy"
  | "prompt_provider"
  | "extension"
  | "exporter"
  | "recorder";
export interface ErrorData {
  source: ErrorSource;
  error: Error;
  /** The event whose observer failed (source `hook`). */
  event?: HookEvent;
  /** The extension the failing observer, policy, prompt fragment or work belongs to. */
  extension?: string;
  /** A count of what was lost, for exporters and the recorder. */
  dropped?: number;
}
export interface SkillInvokedData {
  skill: string;
  found: boolean;
  sourcePath?: string;
  bodyChars: number;
}
export interface KnowledgeAccessedData {
  tool: string;
  bundle: string;
  found: boolean;
  query?: string;
  hits?: number;
  path?: string;
  bodyChars?: number;
}
/** One statement a sandbox ran (or refused): `read_result` SQL in its locked-down DuckDB. */
export interface SandboxExecData {
  /** What ran it: `duckdb` for `read_result` SQL. */
  engine: string;
  /** sha256 (hex) of the statement text: which statement it was, without its text (which may quote data). */
  statementSha256: string;
  /** The tool that asked for it. */
  tool: string;
  /** Rows answered (0 when refused or failed). */
  rows: number;
  durationMs: number;
  /** True when the sandbox refused it (not a single SELECT, a forbidden function, a limit hit). */
  refused: boolean;
  /** Why it was refused or failed (an error code such as `sql_refused`, `timeout`, `sql_failed`). */
  code?: string;
}
export interface CommandInvokedData {
  /** The name typed after the slash. */
  command: string;
  args: string;
  found: boolean;
  /** The extension that registered the command. */
  extension?: string;
  /** The Markdown file of a declarative command. */
  source?: string;
  /** True when the command produced a user message for the model; false when it only acted (or was unknown). */
  sent: boolean;
  messageChars: number;
}
export interface MessageAppendedData {
  /** The custom entry's type. */
  type: string;
  /** The extension that appended it (and registered its type). */
  extension: string;
  data: unknown;
  /** What the type's `render` made of it, for people reading a recording. */
  text?: string;
  /** Whether the type has a `toModel`: false means the entry never reaches the model. */
  toModel: boolean;
}
export interface CheckpointData {
  sessionId: string;
  runId: string;
  status: string;
  phase: string;
}
export type RecoveryReason =
  | "truncated_tool_call"
  | "truncated_text"
  | "empty_reply"
  | "reply_limit"
  | "context_overflow"
  | "context_overflow_spill"
  | "spurious_overflow"
  | "malformed_tool_input"
  | "paused_turn"
  | "iteration_limit"
  | "unfinished_plan"
  | "no_final_answer";
export interface RecoveryData {
  reason: RecoveryReason;
  /** Recoveries of this reason in the run, this one included. */
  attempt: number;
  /** The reply budget of the next call, or null when unchanged. */
  replyBudget: number | null;
}
export interface TodosUpdatedData {
  todos: TodoItem[];
  completed: number;
  total: number;
  inProgress: string | null;
}

/** The payload type of each event: `HookContext<E>["data"]` is `HookPayloads[E]`. */
export interface HookPayloads {
  [HookEvent.AGENT_START]: AgentStartData;
  [HookEvent.AGENT_END]: AgentEndData;
  [HookEvent.LOOP_ITERATION_START]: LoopIterationData;
  [HookEvent.LOOP_ITERATION_END]: LoopIterationEndData;
  [HookEvent.LLM_REQUEST]: LlmRequestData;
  [HookEvent.LLM_RESPONSE]: LlmResponseData;
  [HookEvent.TOOL_CALL_START]: ToolCallStartData;
  [HookEvent.TOOL_CALL_END]: ToolCallEndData;
  [HookEvent.RETRY]: RetryData;
  [HookEvent.CONTEXT_CONDENSED]: ContextCondensedData;
  [HookEvent.REPETITION]: RepetitionData;
  [HookEvent.ERROR]: ErrorData;
  [HookEvent.SKILL_INVOKED]: SkillInvokedData;
  [HookEvent.KNOWLEDGE_ACCESSED]: KnowledgeAccessedData;
  [HookEvent.SANDBOX_EXEC]: SandboxExecData;
  [HookEvent.CHECKPOINT]: CheckpointData;
  [HookEvent.COMMAND_INVOKED]: CommandInvokedData;
  [HookEvent.MESSAGE_APPENDED]: MessageAppendedData;
  [HookEvent.RECOVERY]: RecoveryData;
  [HookEvent.TODOS_UPDATED]: TodosUpdatedData;
  [HookEvent.CUSTOM]: CustomData;
}

/** What an observer receives. */
export interface HookContext<E extends HookEvent = HookEvent> {
  event: E;
  /** A read-only view of the agent (name, session, model, tools, extensions). */
  info: AgentInfo;
  data: HookPayloads[E];
  /** Milliseconds since the epoch. */
  timestamp: number;
  /** The run the event belongs to; undefined outside a run. */
  runId: string | undefined;
  /**
   * The span the event belongs to: for `AGENT_*`, `LLM_*` and `TOOL_CALL_*` the span they open or
   * close (the run's, the model call's, the tool call's); for others the innermost open one.
   */
  span: SpanContext | undefined;
}

export type HookCallback<E extends HookEvent = HookEvent> = (ctx: HookContext<E>) => void | Promise<void>;

/** Observer of any event: its context is the union over every event. */
export type AnyHookContext = { [E in HookEvent]: HookContext<E> }[HookEvent];
