/** OpenTelemetry GenAI attribute names (semantic conventions, gen-ai registry) and harnessx's own. */
export const GenAI = {
  /** `invoke_agent`, `chat` or `execute_tool`, by the span's role. */
  OPERATION_NAME: "gen_ai.operation.name",
  /** The provider's name; on a chat span, the one that answered when it differs from the agent's. */
  PROVIDER_NAME: "gen_ai.provider.name",
  /** The agent's name, on run spans. */
  AGENT_NAME: "gen_ai.agent.name",
  /** The agent's session id. */
  CONVERSATION_ID: "gen_ai.conversation.id",
  /** Model id requested (run and chat spans). */
  REQUEST_MODEL: "gen_ai.request.model",
  /** Reply budget of the model call, in tokens. */
  REQUEST_MAX_TOKENS: "gen_ai.request.max_tokens",
  /** Sampling temperature of the call; absent when the agent sets none. */
  REQUEST_TEMPERATURE: "gen_ai.request.temperature",
  /** The provider's id for the reply. */
  RESPONSE_ID: "gen_ai.response.id",
  /** Model that answered. */
  RESPONSE_MODEL: "gen_ai.response.model",
  /** One-element array holding the harnessx stop reason (`end_turn`, `tool_use`...). */
  RESPONSE_FINISH_REASONS: "gen_ai.response.finish_reasons",
  /** Prompt tokens, cache reads and writes included; on a run span, summed over its calls. */
  USAGE_INPUT_TOKENS: "gen_ai.usage.input_tokens",
  /** Tokens generated; on a run span, summed over its calls. */
  USAGE_OUTPUT_TOKENS: "gen_ai.usage.output_tokens",
  /** Prompt tokens read from the provider's cache; absent when not reported. */
  USAGE_CACHE_READ: "gen_ai.usage.cache_read.input_tokens",
  /** Prompt tokens written to the provider's cache; absent when not reported. */
  USAGE_CACHE_CREATION: "gen_ai.usage.cache_creation.input_tokens",
  /** Name of the tool called. */
  TOOL_NAME: "gen_ai.tool.name",
  /** The provider's id for the tool call. */
  TOOL_CALL_ID: "gen_ai.tool.call.id",
  /** Always `function`. */
  TOOL_TYPE: "gen_ai.tool.type",
  /** The call's input as JSON text; only with `captureContent`, cut at `maxContentChars`. */
  TOOL_CALL_ARGUMENTS: "gen_ai.tool.call.arguments",
  /** The result as JSON (other text as a JSON string, a spilled result as its reference); only with `captureContent`, cut at `maxContentChars`. */
  TOOL_CALL_RESULT: "gen_ai.tool.call.result",
  /** The conversation sent, as GenAI messages JSON; only with `captureContent`. */
  INPUT_MESSAGES: "gen_ai.input.messages",
  /** The reply, as GenAI messages JSON; only with `captureContent`. */
  OUTPUT_MESSAGES: "gen_ai.output.messages",
  /** The system prompt, as GenAI parts JSON; only with `captureContent`. */
  SYSTEM_INSTRUCTIONS: "gen_ai.system_instructions",
  /** The tools offered, as JSON; only with `captureContent`. */
  TOOL_DEFINITIONS: "gen_ai.tool.definitions",
  /** Class of a failure: a harnessx error code, a tool outcome or `tool_error`, the error's class name, else `_OTHER`. */
  ERROR_TYPE: "error.type",
} as const;

/**
 * Cost under the names other backends read, beside `harnessx.cost.usd` (no OpenTelemetry
 * convention names cost yet): Langfuse and OpenLIT read a total, Langfuse also its parts.
 */
export const CostAttributes = {
  /** Total cost of the call, in US dollars. */
  TOTAL: "gen_ai.usage.cost",
  /** Langfuse's cost breakdown: JSON `{"input": usd, "output": usd, "total": usd}`. */
  LANGFUSE_DETAILS: "langfuse.observation.cost_details",
} as const;

/** harnessx attributes and span event names (no convention covers them). */
export const Hx = {
  /** Id of the run (`run_...`), on run spans. */
  RUN_ID: "harnessx.run.id",
  /** How the run ended (a `RunStatus`), or `unfinished` when its span was closed first. */
  RUN_STATUS: "harnessx.run.status",
  /** `true` on a run span that opened at a resume (its first start was not seen). */
  RUN_RESUMED: "harnessx.run.resumed",
  /** The framework that made a run `RunHost` reported (`ai-sdk`, `openai-agents`); absent on harnessx's own runs. */
  FRAMEWORK: "harnessx.framework",
  /** Prefix of the run's metadata entries on its span: `harnessx.run.metadata.<key>`. */
  RUN_METADATA_PREFIX: "harnessx.run.metadata.",
  /** The run's tags (a string array), on its span. */
  RUN_TAGS: "harnessx.run.tags",
  /** How the tool call ended (a `ToolOutcome`). */
  TOOL_OUTCOME: "harnessx.tool.outcome",
  /** `true` when the tool's result was stored aside (spilled) rather than passed on. */
  RESULT_SPILLED: "harnessx.result.spilled",
  /** Id the model reads a spilled result by. */
  RESULT_ID: "harnessx.result.id",
  /** Size of a spilled result, in bytes. */
  RESULT_BYTES: "harnessx.result.bytes",
  /** Original length in characters of a truncated content attribute: `harnessx.original_chars.<attribute>`. */
  ORIGINAL_CHARS_PREFIX: "harnessx.original_chars.",
  /** What the model call cost in US dollars (on chat spans), or the run's priced calls together (on run spans). */
  COST_USD: "harnessx.cost.usd",
  /** Why a model call has no cost (a model no price table knows); its cost is unknown, not 0. */
  COST_UNPRICED: "harnessx.cost.unpriced_reason",
  /** On run spans: model calls of the run without a price (its `harnessx.cost.usd` is then a lower bound). */
  COST_UNPRICED_CALLS: "harnessx.cost.unpriced_calls",
  /** Span event: a model call or tool attempt will be retried (on its span, else the run's). */
  EVENT_RETRY: "harnessx.retry",
  /** Run span event: the loop made a recovery (`harnessx.recovery.*` attributes). */
  EVENT_RECOVERY: "harnessx.recovery",
  /** Run span event: the history was condensed (`harnessx.condensed.*` attributes). */
  EVENT_CONDENSED: "harnessx.context_condensed",
  /** Tool span event: the call was denied, with the permission's source and reason. */
  EVENT_DENIED: "harnessx.policy_denied",
  /** Run span event: an `ERROR` that did not fail a model call's span. */
  EVENT_ERROR: "harnessx.error",
  /** Run span event: the run resumed after an approval wait. */
  EVENT_RESUMED: "harnessx.resumed",
  /** Run span event: a model call's prompt prefix differs from the previous call's (`promptCacheExtension`; `harnessx.prompt_cache.*` attributes). */
  EVENT_PROMPT_CACHE_BREAK: "harnessx.prompt_cache_break",
} as const;

/**
 * General OpenTelemetry attributes a run's metadata may name (entries under these keys are set
 * on the run span by these names too): who the run was for, and the application's session.
 */
export const RUN_METADATA_CONVENTIONS = ["user.id", "session.id"] as const;
