import { parseArguments, type ContentBlock, type ProviderResponse, type StopReason, type Usage } from "@harnessx/core";
import { newId } from "@harnessx/core/extension";
import type { CompletionUsage } from "openai/resources/completions";
import { badResponse } from "../errors.js";
import { count, describe, isObject, str as text } from "../shape.js";

/** One assistant reply as both the JSON and the streamed form yield it. */
export interface ChatReply {
  id: string;
  model: string;
  text: string;
  /** `reasoning_content` / `reasoning` of compatible servers (llama.cpp, vLLM, DeepSeek, Ollama). */
  reasoning: string;
  refusal: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string | null;
  usage: CompletionUsage | null | undefined;
}

/** Reads a non-streamed chat completion, checking the parts the adapter relies on. */
export function readCompletion(value: unknown, provider: string): ChatReply {
  if (!isObject(value)) throw badResponse(provider, `expected a chat completion object, got ${describe(value)}`);
  const choices = value.choices;
  if (!Array.isArray(choices) || choices.length === 0 || !isObject(choices[0]))
    throw badResponse(provider, "the completion has no choices");
  const choice = choices[0];
  const message = choice.message;
  if (!isObject(message)) throw badResponse(provider, "choices[0] has no message");
  const rawCalls = message.tool_calls ?? [];
  if (!Array.isArray(rawCalls)) throw badResponse(provider, "message.tool_calls is not an array");
  const toolCalls = rawCalls.map((call: unknown, i) => {
    const fn = isObject(call) && isObject(call.function) ? call.function : undefined;
    if (!isObject(call) || !fn || typeof fn.name !== "string")
      throw badResponse(provider, `tool_calls[${i}] has no function name`);
    return { id: text(call.id) || newId("call"), name: fn.name, arguments: text(fn.arguments) };
  });
  return {
    id: text(value.id),
    model: text(value.model),
    text: text(message.content),
    reasoning: text(message.reasoning_content) || text(message.reasoning),
    refusal: text(message.refusal),
    toolCalls,
    finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : null,
    usage: isObject(value.usage) ? (value.usage as unknown as CompletionUsage) : undefined,
  };
}

/** The canonical reply: reasoning, then text (or refusal), then tool calls, each argument text parsed without throwing. */
export function toProviderResponse(reply: ChatReply, provider: string, requestedModel: string): ProviderResponse {
  const content: ContentBlock[] = [];
  if (reply.reasoning) content.push({ type: "reasoning", text: reply.reasoning });
  if (reply.text) content.push({ type: "text", text: reply.text });
  if (reply.refusal) content.push({ type: "text", text: reply.refusal });
  for (const call of reply.toolCalls) {
    content.push({ type: "tool_call", id: call.id, name: call.name, ...parseArguments(call.arguments) });
  }
  return {
    id: reply.id,
    model: reply.model || requestedModel,
    provider,
    content,
    stopReason: stopReason(reply),
    usage: usage(reply.usage),
  };
}

/**
 * finish_reason -> canonical stop reason. Some compatible servers answer
 * `stop` with tool calls present; the calls win, or the engine would drop them.
 */
function stopReason(reply: ChatReply): StopReason {
  if (reply.refusal && !reply.text) return "refusal";
  switch (reply.finishReason) {
    case "length":
      return "max_tokens";
    case "content_filter":
      return "refusal";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    default:
      return reply.toolCalls.length > 0 ? "tool_use" : "end_turn";
  }
}

function usage(raw: CompletionUsage | null | undefined): Usage {
  const cached = raw?.prompt_tokens_details?.cached_tokens;
  return {
    inputTokens: count(raw?.prompt_tokens),
    outputTokens: count(raw?.completion_tokens),
    ...(typeof cached === "number" ? { cacheReadTokens: cached } : {}),
  };
}
