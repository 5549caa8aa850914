import type { Message } from "@harnessx/core";

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
  private firstJson = "";
  private lastJson = "";

  /** The offset to record from: messages before it were recorded by an earlier request. */
  offsetFor(messages: readonly Message[]): number {
    if (this.count === 0 || messages.length < this.count) return 0;
    if (!this.same(messages[0], this.first, this.firstJson)) return 0;
    if (!this.same(messages[this.count - 1], this.last, this.lastJson)) return 0;
    return this.count;
  }

  /** Marks `messages` as recorded. */
  recorded(messages: readonly Message[]): void {
    this.count = messages.length;
    this.first = messages[0];
    this.last = messages[messages.length - 1];
    this.firstJson = this.first ? JSON.stringify(this.first) : "";
    this.lastJson = this.last ? JSON.stringify(this.last) : "";
  }

  // Identity is the cheap common case (the engine passes a slice of its memory); middleware
  // that copies messages still matches by content.
  private same(candidate: Message | undefined, known: Message | undefined, knownJson: string): boolean {
    return candidate === known || (candidate !== undefined && JSON.stringify(candidate) === knownJson);
  }
}
