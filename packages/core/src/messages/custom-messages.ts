import type { Message } from "../types/content.js";

/**
 * Custom conversation entries by type, with their data. Extensions declare theirs by
 * declaration merging, which types `ctx.appendMessage(type, data)` and `toModel`/`render`:
 *
 * ```ts
 * declare module "@harnessx/core/extension" {
 *   interface CustomMessages { "deploy.status": { service: string; healthy: boolean } }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose, extensions fill it by declaration merging (a type alias cannot merge)
export interface CustomMessages {}

/** The name of a custom entry type: one of the declared `CustomMessages` keys, or any string while none is declared. */
export type CustomMessageType = [keyof CustomMessages & string] extends [never]
  ? string
  : keyof CustomMessages & string;

/** The data of a custom entry of type `K` (anything JSON while no type is declared). */
export type CustomMessageData<K extends string> = K extends keyof CustomMessages ? CustomMessages[K] : unknown;

/**
 * An entry of the conversation that is not a model message: an extension's own record (a
 * command's output, a status, a note). It lives in the conversation and its saved sessions;
 * it reaches the model only as what its type's `toModel` makes of it.
 */
export interface CustomEntry<K extends string = CustomMessageType> {
  /** Tells a custom entry from a model message. */
  role: "custom";
  /** The entry's type, as registered with `ctx.registerMessageType`. */
  type: K;
  /** The entry's JSON-compatible payload. */
  data: CustomMessageData<K>;
  /** The extension that appended it. */
  extension: string;
}

/** What the conversation holds: model messages and custom entries, in order. */
export type ConversationEntry = Message | CustomEntry<string>;

/** True for an extension's custom entry, false for a model message. */
export function isCustomEntry(entry: ConversationEntry): entry is CustomEntry<string> {
  return entry.role === "custom";
}
