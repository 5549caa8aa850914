/** Every lifecycle event observers can subscribe to. Values are the lower-case names. */
export const HookEvent = {
  /** A run started, or resumed after an approval wait (`resumed`). */
  AGENT_START: "agent_start",
  /** A run completed, failed or was cancelled; a pause for approval emits `CHECKPOINT` instead. */
  AGENT_END: "agent_end",
  /** A loop step (one model reply and the tool calls it asks for) begins. */
  LOOP_ITERATION_START: "loop_iteration_start",
  /** A loop step ended, after its tool results, answer or recovery. */
  LOOP_ITERATION_END: "loop_iteration_end",
  /** A model call is about to be sent, after request middleware; once per call, retries included. */
  LLM_REQUEST: "llm_request",
  /** The provider answered a model call (the raw reply, before response middleware). */
  LLM_RESPONSE: "llm_response",
  /** A permitted tool call is about to run; refused calls skip it. */
  TOOL_CALL_START: "tool_call_start",
  /** A tool call ended, whatever the outcome (refused calls included). */
  TOOL_CALL_END: "tool_call_end",
  /** A model call or tool attempt failed and will be tried again after a delay. */
  RETRY: "retry",
  /** The oldest part of the history was replaced by a summary or a marker. */
  CONTEXT_CONDENSED: "context_condensed",
  /** The model repeated the same tool calls; it is told to answer without tools. */
  REPETITION: "repetition",
  /** Something failed: the run itself, or an observer, policy, extension, exporter or the recorder. */
  ERROR: "error",
  /** The model asked for a skill with `load_skill`. */
  SKILL_INVOKED: "skill_invoked",
  /** The model searched or read a knowledge bundle. */
  KNOWLEDGE_ACCESSED: "knowledge_accessed",
  /** A sandbox ran or refused a statement (`read_result` SQL). */
  SANDBOX_EXEC: "sandbox_exec",
  /** A run reached a point worth persisting: an approval pause, and each committed phase boundary of a durable run. */
  CHECKPOINT: "checkpoint",
  /** A run's input was a `/command` line. */
  COMMAND_INVOKED: "command_invoked",
  /** An extension appended a custom entry to the conversation. */
  MESSAGE_APPENDED: "message_appended",
  /** The loop did not accept a reply or refusal as it was and goes on with another model call. */
  RECOVERY: "recovery",
  /** The model replaced its task list with `write_todos`. */
  TODOS_UPDATED: "todos_updated",
  /** An extension's own event (`ctx.emit`); its name and data are in the payload. */
  CUSTOM: "custom",
} as const;

/** The name of a lifecycle event, e.g. `"tool_call_end"`. */
export type HookEvent = (typeof HookEvent)[keyof typeof HookEvent];

/** Every event name, in the order `HookEvent` declares them. */
export const ALL_HOOK_EVENTS: readonly HookEvent[] = Object.values(HookEvent);

/** Events an extension may emit about its own work (`ctx.report`); the engine alone emits the others. */
export const REPORTED_EVENTS = [
  HookEvent.SKILL_INVOKED,
  HookEvent.KNOWLEDGE_ACCESSED,
  HookEvent.SANDBOX_EXEC,
  HookEvent.CHECKPOINT,
] as const;

/** An event an extension may emit itself (one of `REPORTED_EVENTS`). */
export type ReportedEvent = (typeof REPORTED_EVENTS)[number];
