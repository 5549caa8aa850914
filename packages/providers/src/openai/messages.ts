import type { Message, ToolDefinition } from "@harnessx/core";
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPartText,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionFunctionTool,
} from "openai/resources/chat/completions";

/**
 * Canonical conversation -> Chat Completions messages. Tool results become
 * `tool` messages (placed before any user text of the same turn, as the API
 * wants them right after the assistant's calls); reasoning and provider blocks
 * are dropped: Chat Completions has no field that takes them back.
 */
export function toChatMessages(system: string, messages: readonly Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system) out.push({ role: "system", content: system });
  for (const message of messages) {
    if (message.role === "user") {
      const texts: ChatCompletionContentPartText[] = [];
      for (const block of message.content) {
        if (block.type === "tool_result")
          out.push({ role: "tool", tool_call_id: block.toolCallId, content: block.content });
        else if (block.text) texts.push({ type: "text", text: block.text });
      }
      if (texts.length === 1) out.push({ role: "user", content: texts[0]!.text });
      else if (texts.length > 1) out.push({ role: "user", content: texts });
      continue;
    }
    const assistant = toAssistantMessage(message.content);
    if (assistant) out.push(assistant);
  }
  return out;
}

function toAssistantMessage(
  content: Extract<Message, { role: "assistant" }>["content"],
): ChatCompletionAssistantMessageParam | undefined {
  const text = content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
  const calls: ChatCompletionMessageFunctionToolCall[] = content.flatMap((b) =>
    // The parsed input, not unreadable raw text: some compatible servers re-parse
    // the arguments and would reject the whole request; the error tool result
    // already tells the model what was wrong.
    b.type === "tool_call"
      ? [{ id: b.id, type: "function" as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }]
      : [],
  );
  if (!text && calls.length === 0) return undefined;
  return {
    role: "assistant",
    content: text || null,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

/** Canonical tools -> function tools carrying their JSON Schema. */
export function toChatTools(tools: readonly ToolDefinition[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}
