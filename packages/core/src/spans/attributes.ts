/** OpenTelemetry GenAI attribute names (semantic conventions, gen-ai registry) and harnessx's own. */
export const GenAI = {
  OPERATION_NAME: "gen_ai.operation.name",
  PROVIDER_NAME: "gen_ai.provider.name",
  AGENT_NAME: "gen_ai.agent.name",
  CONVERSATION_ID: "gen_ai.conversation.id",
  REQUEST_MODEL: "gen_ai.request.model",
  REQUEST_MAX_TOKENS: "gen_ai.request.max_tokens",
  REQUEST_TEMPERATURE: "gen_ai.request.temperature",
  RESPONSE_ID: "gen_ai.response.id",
  RESPONSE_MODEL: "gen_ai.response.model",
  RESPONSE_FINISH_REASONS: "gen_ai.response.finish_reasons",
  USAGE_INPUT_TOKENS: "gen_ai.usage.input_tokens",
  USAGE_OUTPUT_TOKENS: "gen_ai.usage.output_tokens",
  USAGE_CACHE_READ: "gen_ai.usage.cache_read.input_tokens",
  USAGE_CACHE_CREATION: "gen_ai.usage.cache_creation.input_tokens",
  TOOL_NAME: "gen_ai.tool.name",
  TOOL_CALL_ID: "gen_ai.tool.call.id",
  TOOL_TYPE: "gen_ai.tool.type",
  TOOL_CALL_ARGUMENTS: "gen_ai.tool.call.arguments",
  TOOL_CALL_RESULT: "gen_ai.tool.call.result",
  INPUT_MESSAGES: "gen_ai.input.messages",
  OUTPUT_MESSAGES: "gen_ai.output.messages",
  SYSTEM_INSTRUCTIONS: "gen_ai.system_instructions",
  TOOL_DEFINITIONS: "gen_ai.tool.definitions",
  ERROR_TYPE: "error.type",
} as const;

/** harnessx attributes and span event names (no convention covers them). */
export const Hx = {
  RUN_ID: "harnessx.run.id",
  RUN_STATUS: "harnessx.run.status",
  RUN_RESUMED: "harnessx.run.resumed",
  TOOL_OUTCOME: "harnessx.tool.outcome",
  RESULT_SPILLED: "harnessx.result.spilled",
  RESULT_ID: "harnessx.result.id",
  RESULT_BYTES: "harnessx.result.bytes",
  /** Original length in characters of a truncated content attribute: `harnessx.original_chars.<attribute>`. */
  ORIGINAL_CHARS_PREFIX: "harnessx.original_chars.",
  EVENT_RETRY: "harnessx.retry",
  EVENT_RECOVERY: "harnessx.recovery",
  EVENT_CONDENSED: "harnessx.context_condensed",
  EVENT_DENIED: "harnessx.policy_denied",
  EVENT_ERROR: "harnessx.error",
  EVENT_RESUMED: "harnessx.resumed",
} as const;

