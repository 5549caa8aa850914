import type { ContentBlock, Message, ToolResultBlock, TextBlock } from "../types/content.js";

/** Rough size of a message in characters (tokens are estimated as chars / 4). */
export function messageChars(message: Message): number {
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
 * The conversation: typed messages kept in order. Provider-owned blocks are
 * stored as received and sent back byte for byte. Size is tracked as messages
 * are added, so budget checks cost nothing per step.
 */
export class ConversationMemory {
  private items: Message[] = [];
  private chars = 0;

  get messages(): readonly Message[] {
    return this.items;
  }

  get length(): number {
    return this.items.length;
  }

  /** Estimated tokens of the whole conversation. */
  get estimatedTokens(): number {
    return Math.ceil(this.chars / 4);
  }

  push(message: Message): void {
    this.items.push(message);
    this.chars += messageChars(message);
  }

  /** Replaces the whole conversation (session load, condensation). */
  replace(messages: readonly Message[]): void {
    this.items = [...messages];
    this.chars = this.items.reduce((n, m) => n + messageChars(m), 0);
  }

  clear(): void {
    this.replace([]);
  }
}
