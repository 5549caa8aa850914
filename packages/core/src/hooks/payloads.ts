import type { AgentInfo } from "../engine/agent-info.js";
import type { SpanContext } from "../spans/span-context.js";
import type { CustomData } from "./custom-events.js";
import { HookEvent } from "./events.js";
import type { CommandInvokedData, ContextCondensedData, MessageAppendedData } from "./conversation-payloads.js";
import type {
  AgentEndData,
  AgentStartData,
  CheckpointData,
  ErrorData,
  LlmRequestData,
  LlmResponseData,
  LoopIterationData,
  LoopIterationEndData,
  RecoveryData,
  RepetitionData,
  RetryData,
} from "./run-payloads.js";
import type {
  KnowledgeAccessedData,
  SandboxExecData,
  SkillInvokedData,
  TodosUpdatedData,
  ToolCallEndData,
  ToolCallStartData,
} from "./tool-payloads.js";

export type { CommandInvokedData, ContextCondensedData, MessageAppendedData } from "./conversation-payloads.js";
export type {
  AgentEndData,
  AgentStartData,
  CheckpointData,
  ErrorData,
  ErrorSource,
  LlmRequestData,
  LlmResponseData,
  LoopIterationData,
  LoopIterationEndData,
  RecoveryData,
  RecoveryReason,
  RepetitionData,
  RetryData,
  RunAttributeValue,
} from "./run-payloads.js";
export type {
  KnowledgeAccessedData,
  SandboxExecData,
  SkillInvokedData,
  TodosUpdatedData,
  ToolCallEndData,
  ToolCallStartData,
  ToolOutcome,
} from "./tool-payloads.js";

/** The payload type of each event: `HookContext<E>["data"]` is `HookPayloads[E]`. */
export interface HookPayloads {
  /** A run started or resumed. */
  [HookEvent.AGENT_START]: AgentStartData;
  /** A run ended (not a pause for approval). */
  [HookEvent.AGENT_END]: AgentEndData;
  /** A loop step begins. */
  [HookEvent.LOOP_ITERATION_START]: LoopIterationData;
  /** A loop step ended. */
  [HookEvent.LOOP_ITERATION_END]: LoopIterationEndData;
  /** A model call is about to be sent. */
  [HookEvent.LLM_REQUEST]: LlmRequestData;
  /** The provider answered a model call. */
  [HookEvent.LLM_RESPONSE]: LlmResponseData;
  /** A permitted tool call is about to run. */
  [HookEvent.TOOL_CALL_START]: ToolCallStartData;
  /** A tool call ended, refused ones included. */
  [HookEvent.TOOL_CALL_END]: ToolCallEndData;
  /** A model call or tool attempt will be retried. */
  [HookEvent.RETRY]: RetryData;
  /** Older history was condensed. */
  [HookEvent.CONTEXT_CONDENSED]: ContextCondensedData;
  /** The model repeated the same tool calls. */
  [HookEvent.REPETITION]: RepetitionData;
  /** Something failed. */
  [HookEvent.ERROR]: ErrorData;
  /** The model asked for a skill. */
  [HookEvent.SKILL_INVOKED]: SkillInvokedData;
  /** The model searched or read a knowledge bundle. */
  [HookEvent.KNOWLEDGE_ACCESSED]: KnowledgeAccessedData;
  /** A sandbox ran or refused a statement. */
  [HookEvent.SANDBOX_EXEC]: SandboxExecData;
  /** A run reached a point worth persisting (an approval pause). */
  [HookEvent.CHECKPOINT]: CheckpointData;
  /** The input was a `/command` line. */
  [HookEvent.COMMAND_INVOKED]: CommandInvokedData;
  /** An extension appended a custom entry. */
  [HookEvent.MESSAGE_APPENDED]: MessageAppendedData;
  /** The loop recovered from a reply or refusal. */
  [HookEvent.RECOVERY]: RecoveryData;
  /** The model replaced its task list. */
  [HookEvent.TODOS_UPDATED]: TodosUpdatedData;
  /** An extension's own event (`ctx.emit`). */
  [HookEvent.CUSTOM]: CustomData;
}

/** What an observer receives. */
export interface HookContext<E extends HookEvent = HookEvent> {
  /** The event's name; checking it narrows `data`. */
  event: E;
  /** A read-only view of the agent (name, session, model, tools, extensions). */
  info: AgentInfo;
  /** The event's payload (see {@link HookPayloads}). */
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

/** An observer of event `E`. It may be async (the engine awaits it); a throw is reported as an `ERROR` event and never changes the run. */
export type HookCallback<E extends HookEvent = HookEvent> = (ctx: HookContext<E>) => void | Promise<void>;

/** Observer of any event: its context is the union over every event. */
export type AnyHookContext = { [E in HookEvent]: HookContext<E> }[HookEvent];
