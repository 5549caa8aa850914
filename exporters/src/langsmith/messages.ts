import type { ContentBlock, Message, ToolDefinition } from "@harnessx/core";
import { cut } from "../mapping/content.js";

/** A chat message in the OpenAI format LangSmith renders (and opens in its Playground). */
export interface LsMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

function clip(text: string, max: number): string {
  const c = cut(text, max);
  return c.truncated ? `${c.text}… [${c.originalChars - max} more characters]` : text;
}

export function assistantMessage(content: readonly ContentBlock[], max: number): LsMessage {
  let text = "";
  const calls: NonNullable<LsMessage["tool_calls"]> = [];
  for (const b of content) {
    if (b.type === "text") text += b.text;
    else if (b.type === "tool_call") calls.push({ id: b.id, type: "function", function: { name: b.name, arguments: clip(JSON.stringify(b.input ?? {}), max) } });
  }
  return { role: "assistant", content: clip(text, max), ...(calls.length ? { tool_calls: calls } : {}) };
}

/** The request as OpenAI-style messages, the system prompt first. */
export function requestMessages(system: string, messages: readonly Message[], max: number): LsMessage[] {
  const out: LsMessage[] = system ? [{ role: "system", content: clip(system, max) }] : [];
  for (const m of messages) {
    if (m.role === "assistant") {
      out.push(assistantMessage(m.content, max));
      continue;
    }
    let text = "";
    for (const b of m.content) {
      if (b.type === "tool_result") out.push({ role: "tool", tool_call_id: b.toolCallId, content: clip(b.content, max) });
      else if (b.type === "text") text += b.text;
    }
    if (text) out.push({ role: "user", content: clip(text, max) });
  }
  return out;
}

export function toolSchemas(tools: readonly ToolDefinition[]): Array<Record<string, unknown>> {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
}
