import { HookEvent } from "../hooks/events.js";
import type { Message } from "../types/content.js";
import { fire, type EngineServices } from "./services.js";

export interface CondenseOutcome {
  messages: Message[];
  messagesDropped: number;
  summaryChars: number;
}

/**
 * Drops the oldest part of a conversation, keeping the first user message and
 * the most recent `keepRatio` of it. The kept part starts at an assistant or
 * plain user message, so no tool result loses its call. Returns undefined when nothing can be dropped.
 */
export function condense(messages: readonly Message[], keepRatio = 0.5): CondenseOutcome | undefined {
  if (messages.length < 4) return undefined;
  const target = Math.max(1, Math.floor(messages.length * (1 - keepRatio)));
  let cut = -1;
  for (let i = target; i < messages.length - 1; i++) {
    if (messages[i].role === "assistant" || isPlainUserMessage(messages[i])) {
      cut = i;
      break;
    }
  }
  if (cut <= 1) return undefined;
  const dropped = messages.slice(1, cut);
  const toolCalls = dropped.reduce((n, m) => n + (m.role === "assistant" ? m.content.filter((b) => b.type === "tool_call").length : 0), 0);
  const summary = `[harnessx: ${dropped.length} earlier messages (${toolCalls} tool calls) were condensed to fit the context budget.]`;
  const kept = messages.slice(cut);
  const first = messages[0];
  // Two user messages in a row are merged so providers that require alternation accept the history.
  const head: Message = { role: "user", content: [...(first.role === "user" ? first.content : []), { type: "text", text: summary }] };
  const out: Message[] = kept[0].role === "user" ? [{ role: "user", content: [...head.content, ...kept[0].content] }, ...kept.slice(1)] : [head, ...kept];
  return { messages: out, messagesDropped: dropped.length, summaryChars: summary.length };
}

function isPlainUserMessage(m: Message): boolean {
  return m.role === "user" && m.content.every((b) => b.type === "text");
}

/**
 * Cuts tool results over 2,000 characters in the history to a short head: the last
 * resort when a conversation too short to condense still overflows. Undefined when none is that large.
 */
export function shrinkToolResults(messages: readonly Message[]): Message[] | undefined {
  let changed = false;
  // Unchanged messages stay the same objects: custom entries stay anchored to them.
  const out = messages.map((m): Message => {
    if (m.role !== "user" || !m.content.some((b) => b.type === "tool_result" && b.content.length > 2000)) return m;
    changed = true;
    return {
      ...m,
      content: m.content.map((b) => {
        if (b.type !== "tool_result" || b.content.length <= 2000) return b;
        return { ...b, content: `${b.content.slice(0, 1000)}\n[harnessx: ${b.content.length - 1000} characters removed to fit the context window]` };
      }),
    };
  });
  return changed ? out : undefined;
}

/** Condenses the run's history in place (CONTEXT_CONDENSED); false when nothing can be dropped. */
export async function condenseHistory(services: EngineServices): Promise<boolean> {
  const outcome = condense(services.memory.messages);
  if (!outcome) return false;
  services.memory.replaceMessages(outcome.messages);
  await fire(services, HookEvent.CONTEXT_CONDENSED, { messagesDropped: outcome.messagesDropped, summaryChars: outcome.summaryChars, summarized: false });
  return true;
}

/** Cuts the large tool results of the run's history in place; false when none is that large. */
export function shrinkHistory(services: EngineServices): boolean {
  const shrunk = shrinkToolResults(services.memory.messages);
  if (shrunk) services.memory.replaceMessages(shrunk);
  return shrunk !== undefined;
}
