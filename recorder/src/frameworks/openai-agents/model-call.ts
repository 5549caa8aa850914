import type {
  ContentBlock,
  ModelRequest,
  ProviderResponse,
  ToolCallBlock,
  ToolDefinition,
  Usage,
} from "@harnessx/core";
import { field, stringField, timeOf } from "./sdk-types.js";
import { outputUsage, replyBlocks, requestMessages, usageOf } from "./sdk-items.js";
import { isModelSpan, type SpanNode } from "./span-tree.js";

// What a model call span (`generation` or `response`) says: the request, the reply and its
// usage. The SDK puts messages on these spans only when the run traces sensitive data
// (`traceIncludeSensitiveData`, on by default); usage and model may then be missing too, and
// the turn span's usage stands in (the runner sums each turn's usage whatever the model reports).

/** A model call as read from its span. */
export interface ModelSpanCall {
  request: ModelRequest;
  response: ProviderResponse;
  /** The reply's tool calls, which the tool and handoff spans that follow answer. */
  toolCalls: ToolCallBlock[];
  startedAt: number | undefined;
  endedAt: number | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Reads a model call span; `model` and `provider` stand in for what the span does not name. */
export function readModelSpan(node: SpanNode, fallback: { model: string; provider: string }): ModelSpanCall {
  const data = node.span.spanData;
  const response = field(data, "_response");
  const raw = isRecord(response) ? response : undefined;
  const isResponses = data.type === "response";
  const input = isResponses ? field(data, "_input") : field(data, "input");
  const output = isResponses ? raw : field(data, "output");
  const config = field(data, "model_config");
  const settings = isRecord(config) ? config : {};
  const model =
    stringField(data, "model") ?? (typeof raw?.model === "string" ? raw.model : undefined) ?? fallback.model;
  const { system, messages } = requestMessages(input);
  const content = output === undefined ? [] : replyBlocks(output);
  const toolCalls = content.filter((b): b is ToolCallBlock => b.type === "tool_call");
  const usage = usageOf(field(data, "usage")) ??
    outputUsage(output) ??
    turnUsage(node) ?? { inputTokens: 0, outputTokens: 0 };
  const provider =
    typeof settings.provider === "string" ? settings.provider : isResponses ? "openai" : fallback.provider;
  const request: ModelRequest = {
    model,
    system,
    messages,
    tools: agentTools(node),
    // The SDK's model settings name no reply budget unless the agent sets one; 0 says "the provider's default".
    maxTokens: typeof settings.max_tokens === "number" ? settings.max_tokens : 0,
    ...(typeof settings.temperature === "number" ? { temperature: settings.temperature } : {}),
    stream: false,
  };
  const id = stringField(data, "response_id") ?? (typeof raw?.id === "string" ? raw.id : "");
  return {
    request,
    response: { id, model, provider, content, stopReason: stopReasonOf(content), usage },
    toolCalls,
    startedAt: timeOf(node.span.startedAt),
    endedAt: timeOf(node.span.endedAt),
  };
}

/** A reply that asks for tools stops for them; any other ends the turn (the SDK's items name no finish reason). */
function stopReasonOf(content: readonly ContentBlock[]): ProviderResponse["stopReason"] {
  return content.some((b) => b.type === "tool_call") ? "tool_use" : "end_turn";
}

/** The usage of the turn span around a model call, when that turn made this one call alone. */
function turnUsage(node: SpanNode): Usage | undefined {
  const turn = node.parent && node.parent.span.spanData.type === "turn" ? node.parent : undefined;
  if (turn?.children.filter(isModelSpan).length !== 1) return undefined;
  return usageOf(field(turn.span.spanData, "usage"));
}

/** The tools the calling agent offered when the call ended, by name (the agent span lists names, not schemas). */
function agentTools(node: SpanNode): ToolDefinition[] {
  return (node.offered ?? []).map((name) => ({ name, description: "", inputSchema: {} }));
}
