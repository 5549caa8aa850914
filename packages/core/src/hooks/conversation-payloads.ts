/** Payload of `CONTEXT_CONDENSED`: the oldest part of the history was dropped and replaced by a summary or a marker. */
export interface ContextCondensedData {
  /** Messages removed (the first user message is always kept). */
  messagesDropped: number;
  /** Length in characters of the text put in their place (its harnessx header line included). */
  summaryChars: number;
  /** True when a `beforeCompact` answer replaced the dropped history; false for the drop-and-mark fallback. */
  summarized: boolean;
  /** Who summarized: the extension (or middleware) whose `beforeCompact` answered. */
  summarizedBy?: string;
  /** The text that now stands for the dropped messages. */
  summary?: string;
  /** `budget`: the history's estimate passed `contextBudgetTokens` before a call; `overflow`: the provider refused the request as too long. */
  reason?: "budget" | "overflow";
}
/** Payload of `COMMAND_INVOKED`: a run's input was a `/command` line. */
export interface CommandInvokedData {
  /** The name typed after the slash. */
  command: string;
  /** The rest of the line after the name, trimmed; empty when none. */
  args: string;
  /** False when no command has that name (the run then fails with an `UnknownCommandError`). */
  found: boolean;
  /** The extension that registered the command. */
  extension?: string;
  /** The Markdown file of a declarative command. */
  source?: string;
  /** True when the command produced a user message for the model; false when it only acted (or was unknown). */
  sent: boolean;
  /** Length in characters of the message sent to the model; 0 when none was. */
  messageChars: number;
}
/** Payload of `MESSAGE_APPENDED`: an extension added a custom entry to the conversation. */
export interface MessageAppendedData {
  /** The custom entry's type. */
  type: string;
  /** The extension that appended it (and registered its type). */
  extension: string;
  /** The entry's data, as the extension gave it. */
  data: unknown;
  /** What the type's `render` made of it, for people reading a recording. */
  text?: string;
  /** Whether the type has a `toModel`: false means the entry never reaches the model. */
  toModel: boolean;
}
