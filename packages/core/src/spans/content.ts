import type { ContentBlock, Message } from "../types/content.js";
import type { ToolDefinition } from "../types/provider.js";

/**
 * Content in the shapes of the GenAI conventions' JSON schemas (input/output
 * messages, system instructions, tool definitions). Long strings are cut per
 * part, so the JSON stays valid; a cut part carries `truncated: true` and
 * `original_chars`.
 */
export interface GenAIPart {
  /** `text`, `reasoning`, `tool_call` or `tool_call_response`. */
  type: string;
  [key: string]: unknown;
}
/** One message in the GenAI conventions' shape (`gen_ai.input.messages`, `gen_ai.output.messages`). */
export interface GenAIMessage {
  /** `user`, `assistant`, or `tool` for tool results. */
  role: string;
  /** The message's content parts, in order; provider-owned blocks are left out. */
  parts: GenAIPart[];
  /** Output messages only: `stop`, `tool_call`, `length`, `content_filter`, else the harnessx stop reason. */
  finish_reason?: string;
}

/** Cuts a string to `max` characters; reports whether it did and the original length. */
export function cut(text: string, max: number): { text: string; truncated: boolean; originalChars: number } {
  if (text.length <= max) return { text, truncated: false, originalChars: text.length };
  return { text: text.slice(0, max), truncated: true, originalChars: text.length };
}

function textPart(type: string, text: string, max: number): GenAIPart {
  const c = cut(text, max);
  return c.truncated
    ? { type, content: c.text, truncated: true, original_chars: c.originalChars }
    : { type, content: text };
}

/** Tool arguments as an object, or as cut JSON text when their JSON is longer than `max`. */
function argumentsPart(id: string, name: string, input: unknown, max: number): GenAIPart {
  const json = safeJson(input);
  if (json.length <= max) return { type: "tool_call", id, name, arguments: input ?? null };
  return { type: "tool_call", id, name, arguments: json.slice(0, max), truncated: true, original_chars: json.length };
}

function responsePart(id: string, result: string, max: number): GenAIPart {
  const c = cut(result, max);
  return c.truncated
    ? { type: "tool_call_response", id, result: c.text, truncated: true, original_chars: c.originalChars }
    : { type: "tool_call_response", id, result };
}

function assistantParts(content: readonly ContentBlock[], max: number): GenAIPart[] {
  const parts: GenAIPart[] = [];
  for (const block of content) {
    if (block.type === "text") parts.push(textPart("text", block.text, max));
    else if (block.type === "reasoning") parts.push(textPart("reasoning", block.text, max));
    else if (block.type === "tool_call") parts.push(argumentsPart(block.id, block.name, block.input, max));
    // Provider-owned blocks are opaque bytes for the provider alone: not content.
  }
  return parts;
}

/** The conversation as sent: user text, assistant replies, and tool results as `tool` messages. */
export function inputMessages(messages: readonly Message[], max: number): GenAIMessage[] {
  const out: GenAIMessage[] = [];
  for (const m of messages) {
    // Recordings made without content keep a marker string instead of blocks.
    if (!m || !Array.isArray(m.content)) continue;
    if (m.role === "assistant") {
      out.push({ role: "assistant", parts: assistantParts(m.content, max) });
      continue;
    }
    const user: GenAIPart[] = [];
    const tool: GenAIPart[] = [];
    for (const block of m.content) {
      if (block.type === "text") user.push(textPart("text", block.text, max));
      else if (block.type === "tool_result") tool.push(responsePart(block.toolCallId, block.content, max));
    }
    if (tool.length) out.push({ role: "tool", parts: tool });
    if (user.length) out.push({ role: "user", parts: user });
  }
  return out;
}

const FINISH_REASONS: Record<string, string> = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool_call",
  max_tokens: "length",
  refusal: "content_filter",
};

/** The reply as one output message with the conventions' finish reason. */
export function outputMessages(content: readonly ContentBlock[], stopReason: string, max: number): GenAIMessage[] {
  return [
    { role: "assistant", parts: assistantParts(content, max), finish_reason: FINISH_REASONS[stopReason] ?? stopReason },
  ];
}

/** The system prompt as GenAI parts: one text part cut at `max` characters, none when the prompt is empty. */
export function systemInstructions(system: unknown, max: number): GenAIPart[] {
  return typeof system === "string" && system ? [textPart("text", system, max)] : [];
}

/** Tool definitions in the GenAI shape: `type: "function"`, `name`, `description`, and the input schema as `parameters`. */
export function toolDefinitions(tools: readonly ToolDefinition[]): Array<Record<string, unknown>> {
  return tools.map((t) => ({ type: "function", name: t.name, description: t.description, parameters: t.inputSchema }));
}

/** JSON text that never throws (cycles and BigInts become a marker string). */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return JSON.stringify(String(value));
  }
}
