import { ExtensionError, toError } from "../errors.js";
import type { Message, UserMessage } from "../types/content.js";
import { isCustomEntry, type ConversationEntry } from "./custom-messages.js";
import type { MessageTypeRegistry } from "./message-types.js";

/**
 * The messages a request sends for a conversation: model messages as they are; each custom
 * entry as its type's `toModel` makes it, or nothing (no `toModel`, an unregistered type, or
 * `null`). A projected user message next to another user message is merged into it, so
 * providers that require alternating roles accept the history.
 */
export function projectConversation(entries: readonly ConversationEntry[], types: MessageTypeRegistry): Message[] {
  const out: Message[] = [];
  // Whether the last message out came from a custom entry: only those are merged (the model's own history stays as it was).
  let lastProjected = false;
  const add = (message: Message, projected: boolean) => {
    const last = out.at(-1);
    if (message.role === "user" && last?.role === "user" && (projected || lastProjected))
      out[out.length - 1] = mergeUser(last, message);
    else out.push(message);
    lastProjected = projected;
  };
  for (const entry of entries) {
    if (!isCustomEntry(entry)) {
      add(entry, false);
      continue;
    }
    const bound = types.get(entry.type);
    const toModel = bound?.spec.toModel;
    if (!bound || !toModel) continue;
    let message: Message | null;
    try {
      message = toModel({ type: entry.type, data: entry.data });
    } catch (err) {
      throw new ExtensionError(
        bound.extension,
        `toModel of message type "${entry.type}" failed: ${toError(err).message}`,
        { cause: err },
      );
    }
    if (message === null || message === undefined) continue;
    if ((message.role !== "user" && message.role !== "assistant") || !Array.isArray(message.content)) {
      throw new ExtensionError(
        bound.extension,
        `toModel of message type "${entry.type}" must return a user or assistant message, or null`,
      );
    }
    add(message, true);
  }
  return out;
}

/** Two user messages as one, tool results first (providers want them right after the calls they answer). */
function mergeUser(a: UserMessage, b: UserMessage): UserMessage {
  const blocks = [...a.content, ...b.content];
  return {
    role: "user",
    content: [...blocks.filter((x) => x.type === "tool_result"), ...blocks.filter((x) => x.type !== "tool_result")],
  };
}
