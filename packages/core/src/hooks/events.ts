/** Every lifecycle event observers can subscribe to. Values are the lower-case names. */
export const HookEvent = {
  AGENT_START: "agent_start",
  AGENT_END: "agent_end",
  LOOP_ITERATION_START: "loop_iteration_start",
  LOOP_ITERATION_END: "loop_iteration_end",
  LLM_REQUEST: "llm_request",
  LLM_RESPONSE: "llm_response",
  TOOL_CALL_START: "tool_call_start",
  TOOL_CALL_END: "tool_call_end",
  RETRY: "retry",
  CONTEXT_CONDENSED: "context_condensed",
  REPETITION: "repetition",
  ERROR: "error",
  SKILL_INVOKED: "skill_invoked",
  KNOWLEDGE_ACCESSED: "knowledge_accessed",
  SANDBOX_EXEC: "sandbox_exec",
  CHECKPOINT: "checkpoint",
  COMMAND_INVOKED: "command_invoked",
  MESSAGE_APPENDED: "message_appended",
  RECOVERY: "recovery",
  TODOS_UPDATED: "todos_updated",
  CUSTOM: "custom",
} as const;

export type HookEvent = (typeof HookEvent)[keyof typeof HookEvent];

export const ALL_HOOK_EVENTS: readonly HookEvent[] = Object.values(HookEvent);

/** Events an extension may emit about its own work (`ctx.emitEvent`); the engine alone emits the others. */
export const REPORTED_EVENTS = [HookEvent.SKILL_INVOKED, HookEvent.KNOWLEDGE_ACCESSED, HookEvent.SANDBOX_EXEC, HookEvent.CHECKPOINT] as const;

export type ReportedEvent = (typeof REPORTED_EVENTS)[number];
