import type { Message } from "@harnessx/core";
import type { AnyHookContext } from "@harnessx/core/extension";

/**
 * Which messages of a run's requests are already recorded, so each LLM_REQUEST stores only
 * the new ones (recording the whole history every call would grow quadratically).
 * A history that shrank or whose recorded part changed (condensed, rewritten by middleware)
 * is recorded again from 0.
 */
export class MessageLog {
  private count = 0;
  private first: Message | undefined;
  private last: Message | undefined;

  /** The offset to record from: messages before it were recorded by an earlier request. */
  offsetFor(messages: readonly Message[]): number {
    if (this.count === 0 || messages.length < this.count) return 0;
    if (!same(messages[0], this.first) || !same(messages[this.count - 1], this.last)) return 0;
    return this.count;
  }

  /** Marks `messages` as recorded. */
  recorded(messages: readonly Message[]): void {
    this.count = messages.length;
    this.first = messages[0];
    this.last = messages[messages.length - 1];
  }
}

// Identity is the cheap common case (the engine passes a slice of its memory); middleware
// that copies messages still matches by content.
function same(candidate: Message | undefined, known: Message | undefined): boolean {
  return (
    candidate === known ||
    (candidate !== undefined && known !== undefined && JSON.stringify(candidate) === JSON.stringify(known))
  );
}

/** An LLM_REQUEST reduced, when observed, to the messages its run had not recorded yet. */
export type QueuedEvent = AnyHookContext & { messagesFrom?: number };

/**
 * Cuts an LLM_REQUEST down to its new messages at observation time, so the queue never holds
 * whole conversation copies (that would push them into the old generation and cost GC time).
 */
export function trimRequest(event: AnyHookContext & { event: "llm_request" }, log: MessageLog): QueuedEvent {
  const { request } = event.data;
  const messagesFrom = log.offsetFor(request.messages);
  log.recorded(request.messages);
  const trimmed = { ...request, messages: request.messages.slice(messagesFrom) };
  return { ...event, data: { ...event.data, request: trimmed }, messagesFrom };
}
