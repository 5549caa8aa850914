import type { RunResult } from "../engine/run-types.js";
import type { AgentStartData, LlmRequestData, LlmResponseData, ToolCallEndData } from "../hooks/payloads.js";
import type { ToolCall, Usage } from "../types/content.js";
import { CostAttributes, GenAI, Hx, RUN_METADATA_CONVENTIONS } from "./attributes.js";
import type { CallCost } from "../cost/call-cost.js";
import { cut, inputMessages, outputMessages, safeJson, systemInstructions, toolDefinitions } from "./content.js";
import { spanError } from "./errors.js";
import type { TracedAgent, Attributes, SpanClose, SpanError, SpanOpen, SpillReference } from "./span-model.js";
import { SPAN_KIND, spanName } from "./span-names.js";

/** What the span mapping puts on spans beyond ids, timings and counts. */
export interface MappingOptions {
  /** Put prompts, replies, tool arguments and results on spans. Default false. */
  captureContent: boolean;
  /** Longest string kept per content part, in characters (default {@link DEFAULT_MAX_CONTENT_CHARS}). */
  maxContentChars: number;
}

/** Default `maxContentChars`: 8192 characters per content part. */
export const DEFAULT_MAX_CONTENT_CHARS = 8192;

function common(info: TracedAgent, operation: string): Attributes {
  const a: Attributes = { [GenAI.OPERATION_NAME]: operation };
  if (info.provider) a[GenAI.PROVIDER_NAME] = info.provider;
  if (info.sessionId) a[GenAI.CONVERSATION_ID] = info.sessionId;
  return a;
}

function usageAttributes(a: Attributes, usage: Partial<Usage> | undefined): void {
  if (!usage) return;
  if (typeof usage.inputTokens === "number") a[GenAI.USAGE_INPUT_TOKENS] = usage.inputTokens;
  if (typeof usage.outputTokens === "number") a[GenAI.USAGE_OUTPUT_TOKENS] = usage.outputTokens;
  if (typeof usage.cacheReadTokens === "number") a[GenAI.USAGE_CACHE_READ] = usage.cacheReadTokens;
  if (typeof usage.cacheWriteTokens === "number") a[GenAI.USAGE_CACHE_CREATION] = usage.cacheWriteTokens;
}

/** A model call's cost under harnessx's name and those other backends read; an unpriced call says why instead. */
function costAttributes(a: Attributes, cost: CallCost | undefined): void {
  if (!cost) return;
  if (cost.usd === null) {
    a[Hx.COST_UNPRICED] = cost.reason;
    return;
  }
  a[Hx.COST_USD] = cost.usd;
  a[CostAttributes.TOTAL] = cost.usd;
  a[CostAttributes.LANGFUSE_DETAILS] = JSON.stringify({
    input: cost.inputUsd,
    output: cost.outputUsd,
    total: cost.usd,
  });
}

/** JSON text for a free-form content attribute; past `max` it becomes a cut JSON string and the original length is kept beside it. */
function jsonContent(a: Attributes, key: string, json: string, max: number): void {
  if (json.length <= max) {
    a[key] = json;
    return;
  }
  a[key] = JSON.stringify(cut(json, max).text);
  a[Hx.ORIGINAL_CHARS_PREFIX + key] = json.length;
}

export function agentOpen(info: TracedAgent, start: AgentStartData, time: number): SpanOpen {
  const attributes: Attributes = { ...declaredAttributes(start.attributes), ...common(info, "invoke_agent") };
  attributes[GenAI.AGENT_NAME] = info.name;
  if (start.model) attributes[GenAI.REQUEST_MODEL] = start.model;
  attributes[Hx.RUN_ID] = start.runId;
  // The one harnessx attribute a run's start may carry: RunHost names the framework that made the run.
  const framework = start.attributes?.[Hx.FRAMEWORK];
  if (typeof framework === "string") attributes[Hx.FRAMEWORK] = framework;
  if (start.resumed) attributes[Hx.RUN_RESUMED] = true;
  labelAttributes(attributes, start);
  return {
    role: "agent",
    name: spanName("agent", info.name),
    kind: SPAN_KIND.agent,
    time,
    attributes,
    detail: { role: "agent", start },
  };
}

export function agentClose(start: AgentStartData, result: RunResult | undefined, time: number): SpanClose {
  const attributes: Attributes = {};
  let error: SpanError | undefined;
  if (result) {
    attributes[Hx.RUN_STATUS] = result.status;
    usageAttributes(attributes, result.usage);
    const cost = result.usage?.cost;
    if (typeof cost?.usd === "number") attributes[Hx.COST_USD] = cost.usd;
    if (cost?.unpricedCalls) attributes[Hx.COST_UNPRICED_CALLS] = cost.unpricedCalls;
    if (result.status === "failed") error = spanError(result.error, "run_failed");
    else if (result.status === "cancelled") error = { type: "cancelled", message: "the run was cancelled" };
  } else {
    attributes[Hx.RUN_STATUS] = "unfinished";
  }
  if (error) attributes[GenAI.ERROR_TYPE] = error.type;
  return {
    time,
    attributes,
    ...(error ? { error } : {}),
    detail: { role: "agent", start, ...(result ? { result } : {}) },
  };
}

export function chatOpen(info: TracedAgent, request: LlmRequestData, time: number, o: MappingOptions): SpanOpen {
  const attributes = common(info, "chat");
  attributes[GenAI.REQUEST_MODEL] = request.model;
  // 0 is how a run made elsewhere says its call set no limit (the AI SDK's maxOutputTokens unset).
  if (typeof request.maxTokens === "number" && request.maxTokens > 0)
    attributes[GenAI.REQUEST_MAX_TOKENS] = request.maxTokens;
  if (typeof request.temperature === "number") attributes[GenAI.REQUEST_TEMPERATURE] = request.temperature;
  const full = request.request;
  if (o.captureContent && full) {
    if (full.system)
      attributes[GenAI.SYSTEM_INSTRUCTIONS] = safeJson(systemInstructions(full.system, o.maxContentChars));
    if (Array.isArray(full.messages))
      attributes[GenAI.INPUT_MESSAGES] = safeJson(inputMessages(full.messages, o.maxContentChars));
    if (Array.isArray(full.tools) && full.tools.length)
      attributes[GenAI.TOOL_DEFINITIONS] = safeJson(toolDefinitions(full.tools));
  }
  return {
    role: "chat",
    name: spanName("chat", request.model),
    kind: SPAN_KIND.chat,
    time,
    attributes,
    detail: { role: "chat", request },
  };
}

export function chatClose(
  info: TracedAgent,
  request: LlmRequestData,
  response: LlmResponseData,
  time: number,
  o: MappingOptions,
): SpanClose {
  const attributes: Attributes = {};
  // Set at start from the agent's provider; a reply from another one (a fallback) corrects it.
  if (response.provider && response.provider !== info.provider) attributes[GenAI.PROVIDER_NAME] = response.provider;
  const raw = response.response;
  if (raw?.id) attributes[GenAI.RESPONSE_ID] = raw.id;
  if (response.model) attributes[GenAI.RESPONSE_MODEL] = response.model;
  if (response.stopReason) attributes[GenAI.RESPONSE_FINISH_REASONS] = [response.stopReason];
  usageAttributes(attributes, response.usage);
  costAttributes(attributes, response.cost);
  if (o.captureContent && Array.isArray(raw?.content)) {
    attributes[GenAI.OUTPUT_MESSAGES] = safeJson(outputMessages(raw.content, response.stopReason, o.maxContentChars));
  }
  return { time, attributes, detail: { role: "chat", request, response } };
}

export function failedClose(
  detailClose: Omit<SpanClose, "time" | "attributes" | "error">,
  error: SpanError,
  time: number,
): SpanClose {
  return { ...detailClose, time, attributes: { [GenAI.ERROR_TYPE]: error.type }, error };
}

/** Attributes an extension or tool declared, outside the mapping's own namespaces, of the kinds OpenTelemetry accepts. */
/** The run's metadata and tags: under harnessx's names, and the conventions' where they name one. */
function labelAttributes(attributes: Attributes, start: AgentStartData): void {
  for (const [key, value] of Object.entries(start.metadata ?? {})) {
    attributes[Hx.RUN_METADATA_PREFIX + key] = value;
    if ((RUN_METADATA_CONVENTIONS as readonly string[]).includes(key)) attributes[key] = value;
  }
  if (start.tags?.length) attributes[Hx.RUN_TAGS] = [...start.tags];
}

function declaredAttributes(declared: Readonly<Record<string, unknown>> | undefined): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(declared ?? {})) {
    if (key.startsWith("gen_ai.") || key.startsWith("harnessx.")) continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") attributes[key] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === "string")) attributes[key] = [...value];
  }
  return attributes;
}

export function toolOpen(
  call: ToolCall,
  time: number,
  o: MappingOptions,
  declared?: Readonly<Record<string, string | number | boolean>>,
): SpanOpen {
  // The execute_tool convention names no provider or conversation: only the tool's own facts,
  // and what the tool declares of itself outside the mapping's own namespaces.
  const attributes = declaredAttributes(declared);
  attributes[GenAI.OPERATION_NAME] = "execute_tool";
  attributes[GenAI.TOOL_NAME] = call.name;
  attributes[GenAI.TOOL_CALL_ID] = call.id;
  attributes[GenAI.TOOL_TYPE] = "function";
  if (o.captureContent)
    jsonContent(attributes, GenAI.TOOL_CALL_ARGUMENTS, safeJson(call.input ?? {}), o.maxContentChars);
  return {
    role: "tool",
    name: spanName("tool", call.name),
    kind: SPAN_KIND.tool,
    time,
    attributes,
    detail: { role: "tool", toolCall: call },
  };
}

export function toolClose(
  end: ToolCallEndData,
  spill: SpillReference | undefined,
  time: number,
  o: MappingOptions,
): SpanClose {
  const attributes: Attributes = {};
  const result = end.result;
  if (end.outcome) attributes[Hx.TOOL_OUTCOME] = end.outcome;
  if (spill) {
    attributes[Hx.RESULT_SPILLED] = true;
    attributes[Hx.RESULT_ID] = spill.resultId;
    attributes[Hx.RESULT_BYTES] = spill.bytes;
  }
  if (o.captureContent && result) {
    // A spilled result is shown by reference only: never its content.
    const json = spill ? safeJson(spill) : resultJson(result.content ?? "");
    jsonContent(attributes, GenAI.TOOL_CALL_RESULT, json, o.maxContentChars);
  }
  let error: SpanError | undefined;
  if (result?.isError) {
    const type = end.outcome && end.outcome !== "executed" ? end.outcome : "tool_error";
    error = { type, message: result.content ?? "" };
    attributes[GenAI.ERROR_TYPE] = type;
  }
  return {
    time,
    attributes,
    ...(error ? { error } : {}),
    detail: { role: "tool", toolCall: end.toolCall, end, ...(spill ? { spill } : {}) },
  };
}

/** A result that is JSON text stays JSON; any other text becomes a JSON string. */
function resultJson(content: string): string {
  const first = content.charCodeAt(0);
  if (first === 123 || first === 91) {
    try {
      JSON.parse(content);
      return content;
    } catch {
      // not JSON: quoted below
    }
  }
  return JSON.stringify(content);
}
