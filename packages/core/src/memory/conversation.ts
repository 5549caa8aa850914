import { deepFreeze } from "../util/deep-freeze.js";
import { isCustomEntry, type ConversationEntry } from "../messages/custom-messages.js";
import type { ContentBlock, Message, ToolResultBlock, TextBlock } from "../types/content.js";

/** Rough size of an entry in characters (tokens are estimated as chars / 4); a custom entry by its data's JSON. */
export function messageChars(message: ConversationEntry): number {
  if (isCustomEntry(message)) return 8 + estimateJsonChars(message.data);
  let n = 8;
  for (const block of message.content as Array<ContentBlock | ToolResultBlock | TextBlock>) {
    switch (block.type) {
      case "text":
      case "reasoning":
        n += block.text.length;
        break;
      case "tool_result":
        n += block.content.length + 16;
        break;
      case "tool_call":
        n += block.name.length + (block.rawInput?.length ?? estimateJsonChars(block.input)) + 16;
        break;
      case "provider":
        n += 64;
        break;
    }
  }
  return n;
}

function estimateJsonChars(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/**
 * The conversation: model messages and extensions' custom entries, kept in order. Provider-owned
 * blocks are stored as received and sent back byte for byte. Size is tracked as entries are
 * added, so budget checks cost nothing per step. Entries are frozen once held: history is never
 * edited in place (a change is a new history, attributed), and requests share it without copies.
 */
export class ConversationMemory {
  private items: ConversationEntry[] = [];
  private chars = 0;
  private customs = 0;
  private standard: readonly Message[] | undefined;
  private replaced = 0;

  /** The model messages, without custom entries (the same array until the conversation changes). */
  get messages(): readonly Message[] {
    this.standard ??=
      this.customs === 0 ? (this.items as Message[]) : this.items.filter((e): e is Message => !isCustomEntry(e));
    return this.standard;
  }

  /** Every entry, custom ones included, in order. */
  get entries(): readonly ConversationEntry[] {
    return this.items;
  }

  /** Custom entries held; zero means the messages are the whole conversation. */
  get customCount(): number {
    return this.customs;
  }

  /** Number of entries, custom ones included. */
  get length(): number {
    return this.items.length;
  }

  /** Times the conversation was replaced rather than appended to: an unchanged count means earlier entries are as they were. */
  get rewrites(): number {
    return this.replaced;
  }

  /** Estimated tokens of the whole conversation. */
  get estimatedTokens(): number {
    return Math.ceil(this.chars / 4);
  }

  /** Appends one entry (a message or a custom entry) at the end. */
  push(entry: ConversationEntry): void {
    this.items.push(deepFreeze(entry));
    this.chars += messageChars(entry);
    if (isCustomEntry(entry)) this.customs++;
    // Without custom entries the messages are the entries themselves; otherwise their filtered copy is now stale.
    if (this.customs > 0) this.standard = undefined;
  }

  /** Replaces the whole conversation, custom entries included (session load). */
  replace(entries: readonly ConversationEntry[]): void {
    this.replaced++;
    this.items = entries.map((entry) => deepFreeze(entry));
    this.chars = this.items.reduce((n, m) => n + messageChars(m), 0);
    this.customs = this.items.filter(isCustomEntry).length;
    this.standard = undefined;
  }

  /**
   * Replaces the model messages (condensing, shrinking) and keeps every custom entry: each stays
   * after the message it followed when that message is kept (the same object), else it moves to
   * just after the first message, in order.
   */
  replaceMessages(messages: readonly Message[]): void {
    if (this.customs === 0) {
      this.replace(messages);
      return;
    }
    const after = new Map<Message | null, ConversationEntry[]>();
    let previous: Message | null = null;
    for (const entry of this.items) {
      if (!isCustomEntry(entry)) previous = entry;
      else after.set(previous, [...(after.get(previous) ?? []), entry]);
    }
    const kept = new Set<Message | null>([null, ...messages]);
    const orphans = [...after].filter(([anchor]) => !kept.has(anchor)).flatMap(([, entries]) => entries);
    const out: ConversationEntry[] = [...(after.get(null) ?? [])];
    messages.forEach((message, i) => {
      out.push(message);
      if (i === 0) out.push(...orphans);
      out.push(...(after.get(message) ?? []));
    });
    if (messages.length === 0) out.push(...orphans);
    this.replace(out);
  }

  /** Removes every entry, custom ones included. */
  clear(): void {
    this.replace([]);
  }
}
