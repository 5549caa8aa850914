import {
  parseArguments,
  STOP_REASONS,
  type ContentBlock,
  type ProviderResponse,
  type StopReason,
  type Usage,
} from "@harnessx/core";
import { badResponse } from "../errors.js";
import { count, describe, isObject, str } from "../shape.js";
import { ANTHROPIC_VENDOR } from "./vendor.js";

/** A Messages API reply, checked only as far as the adapter relies on it. */
export interface AnthropicReply {
  id: string;
  model: string;
  content: Array<Record<string, unknown>>;
  stopReason: string | null;
  usage: Record<string, unknown>;
}

/** Reads a non-streamed `message` object. */
export function readMessage(value: unknown, provider: string): AnthropicReply {
  if (!isObject(value)) throw badResponse(provider, `expected a message object, got ${describe(value)}`);
  if (!Array.isArray(value.content)) throw badResponse(provider, "the message has no content array");
  const content = value.content.map((block: unknown, i) => {
    if (!isObject(block) || typeof block.type !== "string")
      throw badResponse(provider, `content[${i}] is not a typed block`);
    return block;
  });
  return {
    id: str(value.id),
    model: str(value.model),
    content,
    stopReason: typeof value.stop_reason === "string" ? value.stop_reason : null,
    usage: isObject(value.usage) ? value.usage : {},
  };
}

/**
 * The canonical reply. `thinking` becomes signed reasoning; `redacted_thinking`
 * and every block this adapter does not model (server tools, future types)
 * becomes an opaque provider block holding the raw JSON, sent back as-is.
 * `rawToolInput` holds streamed argument text by block index, which may be
 * unreadable (a cut stream); it is parsed without throwing.
 */
export function toProviderResponse(
  reply: AnthropicReply,
  provider: string,
  requestedModel: string,
  rawToolInput?: ReadonlyMap<number, string>,
): ProviderResponse {
  const content: ContentBlock[] = [];
  reply.content.forEach((block, index) => {
    switch (block.type) {
      case "text":
        if (str(block.text)) content.push({ type: "text", text: str(block.text) });
        return;
      case "thinking":
        content.push({ type: "reasoning", text: str(block.thinking), signature: str(block.signature) });
        return;
      case "tool_use": {
        const raw = rawToolInput?.get(index);
        const parsed = raw !== undefined ? parseArguments(raw) : { input: isObject(block.input) ? block.input : {} };
        content.push({ type: "tool_call", id: str(block.id), name: str(block.name), ...parsed });
        return;
      }
      default:
        content.push({ type: "provider", provider: ANTHROPIC_VENDOR, data: block });
    }
  });
  return {
    id: reply.id,
    model: reply.model || requestedModel,
    provider,
    content,
    stopReason: stopReason(reply.stopReason, content),
    usage: usage(reply.usage),
  };
}

function stopReason(raw: string | null, content: ContentBlock[]): StopReason {
  if (STOP_REASONS.includes(raw as StopReason)) return raw as StopReason;
  // The model ran into its context window mid-reply: a cut reply, like max_tokens.
  if (raw === "model_context_window_exceeded") return "max_tokens";
  return content.some((b) => b.type === "tool_call") ? "tool_use" : "end_turn";
}

/**
 * `inputTokens` counts every prompt token, cache reads and writes included (the
 * API's `input_tokens` leaves them out), so it means the same as OpenAI's
 * `prompt_tokens`; the cache parts are also given on their own.
 */
function usage(raw: Record<string, unknown>): Usage {
  const cacheRead = raw.cache_read_input_tokens;
  const cacheWrite = raw.cache_creation_input_tokens;
  return {
    inputTokens: count(raw.input_tokens) + count(cacheRead) + count(cacheWrite),
    outputTokens: count(raw.output_tokens),
    ...(typeof cacheRead === "number" ? { cacheReadTokens: cacheRead } : {}),
    ...(typeof cacheWrite === "number" ? { cacheWriteTokens: cacheWrite } : {}),
  };
}
