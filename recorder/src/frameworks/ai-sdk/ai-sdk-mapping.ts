import type {
  ContentBlock,
  Message,
  ModelRequest,
  ProviderResponse,
  StopReason,
  TextBlock,
  ToolDefinition,
  ToolResultBlock,
  Usage,
} from "@harnessx/core";
import { outputText, toolInput } from "../tool-values.js";
import type {
  AiSdkInstructions,
  AiSdkMessage,
  AiSdkModelCallEndEvent,
  AiSdkModelCallStartEvent,
  AiSdkPart,
  AiSdkStartEvent,
  AiSdkUsage,
} from "./ai-sdk-events.js";

export { outputText, toolInput };

// How the AI SDK's prompts, replies, usage and tool values become harnessx's canonical request,
// reply and tool records: the one translation the recording uses.

/** `ai.openai.chat` names the provider `openai` for prices and traces: the part before the first dot. */
export function providerName(provider: string): string {
  const dot = provider.indexOf(".");
  return dot > 0 ? provider.slice(0, dot) : provider;
}

/** The harnessx request of a model call; without recorded inputs, its messages and system prompt are left out. */
export function modelRequest(event: AiSdkModelCallStartEvent, stream: boolean): ModelRequest {
  const keep = event.recordInputs !== false;
  return {
    model: event.modelId,
    system: keep ? systemText(event.instructions, event.messages) : "",
    messages: keep ? toMessages(event.messages) : [],
    tools: (event.tools ?? []).map(toolDefinition),
    // The AI SDK sends no reply budget unless the call sets one; 0 says "the provider's default".
    maxTokens: event.maxOutputTokens ?? 0,
    ...(event.temperature !== undefined ? { temperature: event.temperature } : {}),
    stream,
  };
}

/** The harnessx reply of a model call; without recorded outputs, its content is left out. */
export function providerResponse(event: AiSdkModelCallEndEvent): ProviderResponse {
  return {
    id: event.responseId ?? "",
    model: event.modelId,
    provider: providerName(event.provider),
    content: event.recordOutputs === false ? [] : event.content.flatMap(replyBlock),
    stopReason: stopReason(event.finishReason),
    usage: usageOf(event.usage),
  };
}

/** The run's input: the text of the last user message (the `prompt` of `generateText`). */
export function inputText(start: AiSdkStartEvent): string {
  if (start.recordInputs === false) return "";
  const user = [...(start.messages ?? [])].reverse().find((m) => m.role === "user");
  return user ? textOf(user.content) : "";
}

/** The message of a thrown value. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : outputText(error);
}

export function usageOf(usage: AiSdkUsage | undefined): Usage {
  const details = usage?.inputTokenDetails;
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    ...(details?.cacheReadTokens !== undefined ? { cacheReadTokens: details.cacheReadTokens } : {}),
    ...(details?.cacheWriteTokens !== undefined ? { cacheWriteTokens: details.cacheWriteTokens } : {}),
  };
}

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  stop: "end_turn",
  "tool-calls": "tool_use",
  length: "max_tokens",
  "content-filter": "refusal",
  interrupted: "pause_turn",
};

/** The AI SDK's unified finish reason as harnessx's stop reason (`error` and `other` end the turn). */
export function stopReason(finishReason: string): StopReason {
  return STOP_REASONS[finishReason] ?? "end_turn";
}

function systemText(instructions: AiSdkInstructions, messages: ReadonlyArray<AiSdkMessage>): string {
  const parts: string[] = [];
  const add = (m: AiSdkMessage | string) => void parts.push(typeof m === "string" ? m : textOf(m.content));
  if (instructions !== undefined)
    for (const m of Array.isArray(instructions) ? instructions : [instructions]) add(m as AiSdkMessage | string);
  for (const m of messages) if (m.role === "system") add(m);
  return parts.join("\n\n");
}

function toMessages(messages: ReadonlyArray<AiSdkMessage>): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    if (m.role === "assistant") out.push({ role: "assistant", content: partsOf(m.content).flatMap(replyBlock) });
    else if (m.role === "user" || m.role === "tool")
      out.push({ role: "user", content: partsOf(m.content).flatMap(userBlock) });
  }
  return out;
}

function partsOf(content: string | ReadonlyArray<AiSdkPart>): ReadonlyArray<AiSdkPart> {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function textOf(content: string | ReadonlyArray<AiSdkPart>): string {
  return partsOf(content)
    .map((p) => (p.type === "text" ? (p.text ?? "") : ""))
    .join("");
}

function replyBlock(part: AiSdkPart): ContentBlock[] {
  if (part.type === "text") return [{ type: "text", text: part.text ?? "" }];
  if (part.type === "reasoning") return [{ type: "reasoning", text: part.text ?? "" }];
  if (part.type === "tool-call")
    return [{ type: "tool_call", id: part.toolCallId ?? "", name: part.toolName ?? "", input: toolInput(part.input) }];
  return [];
}

function userBlock(part: AiSdkPart): Array<TextBlock | ToolResultBlock> {
  if (part.type === "text") return [{ type: "text", text: part.text ?? "" }];
  if (part.type === "tool-result") {
    const { text, isError } = toolResultText(part.output);
    return [
      { type: "tool_result", toolCallId: part.toolCallId ?? "", name: part.toolName ?? "", content: text, isError },
    ];
  }
  // Images and files are named, not copied: the recording keeps what was sent, not the bytes.
  if (part.type === "image" || part.type === "file")
    return [{ type: "text", text: `[${part.type}${part.mediaType ? ` ${part.mediaType}` : ""}]` }];
  return [];
}

/** A tool-result part's `output` (`{ type: "text" | "json" | "error-text" | "error-json" | "content", value }`). */
function toolResultText(output: unknown): { text: string; isError: boolean } {
  if (output === null || typeof output !== "object" || !("type" in output))
    return { text: outputText(output), isError: false };
  const { type, value } = output as { type: string; value?: unknown };
  const isError = type.startsWith("error") || type === "execution-denied";
  if (type === "content" && Array.isArray(value))
    return { text: value.map((v: { text?: string }) => v?.text ?? "").join(""), isError };
  return { text: outputText(value), isError };
}

function toolDefinition(tool: Record<string, unknown>): ToolDefinition {
  const schema = tool.inputSchema;
  return {
    name: typeof tool.name === "string" ? tool.name : "",
    description: typeof tool.description === "string" ? tool.description : "",
    inputSchema: schema !== null && typeof schema === "object" ? (schema as Record<string, unknown>) : {},
  };
}
