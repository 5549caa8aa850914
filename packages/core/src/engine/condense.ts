import { HookEvent } from "../hooks/events.js";
import type { CompactReason } from "../middleware/middleware.js";
import type { Message } from "../types/content.js";
import { fire, type EngineServices } from "./services.js";

/** A condensed conversation and what condensing it cost. */
export interface CondenseOutcome {
  /** The new history: the first user message with the summary or marker text, then the kept recent part. */
  messages: Message[];
  /** Messages removed from between the first message and the kept part. */
  messagesDropped: number;
  /** Length of the inserted summary or marker text (its header line included), in characters. */
  summaryChars: number;
}

/** Where a conversation can be cut: it keeps `messages[0]` and `messages[cut..]`. */
export interface CondensePlan {
  /** Index of the first message kept after `messages[0]`; always at least 2. */
  cut: number;
  /** The messages that would go: `messages[1..cut)`. */
  dropped: readonly Message[];
}

/**
 * Where to cut a conversation to keep its first user message and the most recent `keepRatio`
 * of it: the kept part starts at an assistant or plain user message, so no tool result loses
 * its call. Undefined when nothing can be dropped.
 */
export function planCondense(messages: readonly Message[], keepRatio = 0.5): CondensePlan | undefined {
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
  return { cut, dropped: messages.slice(1, cut) };
}

/**
 * Drops the oldest part of a conversation (see `planCondense`) and puts in its place a
 * summary, when one is given, else a marker saying what was dropped. Undefined when nothing can be dropped.
 */
export function condense(
  messages: readonly Message[],
  keepRatio = 0.5,
  summary?: { text: string; by: string },
  plan = planCondense(messages, keepRatio),
): CondenseOutcome | undefined {
  if (!plan) return undefined;
  const { cut, dropped } = plan;
  const toolCalls = dropped.reduce(
    (n, m) => n + (m.role === "assistant" ? m.content.filter((b) => b.type === "tool_call").length : 0),
    0,
  );
  const text = summary
    ? `[harnessx: ${dropped.length} earlier messages (${toolCalls} tool calls) were replaced by this summary from ${summary.by}]\n${summary.text}`
    : `[harnessx: ${dropped.length} earlier messages (${toolCalls} tool calls) were condensed to fit the context budget.]`;
  const kept = messages.slice(cut);
  const first = messages[0];
  // Two user messages in a row are merged so providers that require alternation accept the history.
  const head: Message = {
    role: "user",
    content: [...(first.role === "user" ? first.content : []), { type: "text", text }],
  };
  const out: Message[] =
    kept[0].role === "user"
      ? [{ role: "user", content: [...head.content, ...kept[0].content] }, ...kept.slice(1)]
      : [head, ...kept];
  return { messages: out, messagesDropped: dropped.length, summaryChars: text.length };
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
        return {
          ...b,
          content: `${b.content.slice(0, 1000)}\n[harnessx: ${b.content.length - 1000} characters removed to fit the context window]`,
        };
      }),
    };
  });
  return changed ? out : undefined;
}

/**
 * Condenses the run's history in place (CONTEXT_CONDENSED): the first `beforeCompact` answer
 * summarizes what is dropped, else it is dropped and marked. False when nothing can be dropped.
 */
export async function condenseHistory(services: EngineServices, reason: CompactReason): Promise<boolean> {
  const { memory, middleware, config } = services;
  const plan = planCondense(memory.messages);
  if (!plan) return false;
  const answer = middleware.has("beforeCompact")
    ? await middleware.beforeCompact({
        messages: memory.messages,
        dropping: plan.dropped,
        reason,
        budgetTokens: config.contextBudgetTokens,
      })
    : undefined;
  const outcome = condense(
    memory.messages,
    undefined,
    answer ? { text: answer.summary, by: answer.by } : undefined,
    plan,
  )!;
  memory.replaceMessages(outcome.messages);
  await fire(services, HookEvent.CONTEXT_CONDENSED, {
    messagesDropped: outcome.messagesDropped,
    summaryChars: outcome.summaryChars,
    summarized: answer !== undefined,
    ...(answer ? { summarizedBy: answer.by, summary: answer.summary } : {}),
    reason,
  });
  return true;
}

/** Cuts the large tool results of the run's history in place; false when none is that large. */
export function shrinkHistory(services: EngineServices): boolean {
  const shrunk = shrinkToolResults(services.memory.messages);
  if (shrunk) services.memory.replaceMessages(shrunk);
  return shrunk !== undefined;
}
