import { cutPoint, type ContentBlock, type Message, type ToolDefinition } from "@harnessx/core";

/** A chat message in the OpenAI format LangSmith renders (and opens in its Playground). */
export interface LsMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

/** A long text cut off any token (see `cutPoint`): the cut is redacted after it, and half a key would not be recognized. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = cutPoint(text, max);
  return `${text.slice(0, end)}… [${text.length - end} more characters]`;
}

export function assistantMessage(content: readonly ContentBlock[] | unknown, max: number): LsMessage {
  let text = "";
  const calls: NonNullable<LsMessage["tool_calls"]> = [];
  // A recording made without content keeps a marker string instead of blocks.
  for (const b of Array.isArray(content) ? (content as ContentBlock[]) : []) {
    if (b.type === "text") text += b.text;
    else if (b.type === "tool_call")
      calls.push({
        id: b.id,
        type: "function",
        function: { name: b.name, arguments: clip(JSON.stringify(b.input ?? {}), max) },
      });
  }
  return { role: "assistant", content: clip(text, max), ...(calls.length ? { tool_calls: calls } : {}) };
}

/** The request as OpenAI-style messages, the system prompt first. */
export function requestMessages(system: unknown, messages: readonly Message[] | unknown, max: number): LsMessage[] {
  const out: LsMessage[] = typeof system === "string" && system ? [{ role: "system", content: clip(system, max) }] : [];
  for (const m of Array.isArray(messages) ? (messages as Message[]) : []) {
    if (!m || !Array.isArray(m.content)) continue;
    if (m.role === "assistant") {
      out.push(assistantMessage(m.content, max));
      continue;
    }
    let text = "";
    for (const b of m.content) {
      if (b.type === "tool_result")
        out.push({ role: "tool", tool_call_id: b.toolCallId, content: clip(b.content, max) });
      else if (b.type === "text") text += b.text;
    }
    if (text) out.push({ role: "user", content: clip(text, max) });
  }
  return out;
}

export function toolSchemas(tools: readonly ToolDefinition[]): Array<Record<string, unknown>> {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}
