import { SessionStateError } from "../errors.js";
import type { JsonValue } from "../types/json.js";
import type { TodoItem } from "../tools/todos.js";
import type { ConversationEntry } from "../messages/custom-messages.js";

/** One extension's saved state: what its `onSaveSession` returned, with its `stateVersion`. */
export interface SavedExtensionState {
  /** The extension's `stateVersion` when saved; loading into a different version is refused. */
  version: number;
  /** What `onSaveSession` returned. */
  state: JsonValue;
}

/** What `saveSession()` returns: JSON-compatible, versioned. */
export interface SessionState {
  /** Marks the value as a saved session; anything else is refused at load. */
  format: "harnessx.session";
  /** Version of this format; only 1 is read. */
  version: 1;
  /** The id of the session that was saved; loading keeps the loading agent's own id. */
  sessionId: string;
  /** Model messages and custom entries, in order. */
  messages: ConversationEntry[];
  /** The `write_todos` task list; empty when the model kept none. */
  todos: TodoItem[];
  /** Saved state by extension name; only extensions whose `onSaveSession` returned something appear. */
  extensions: Record<string, SavedExtensionState>;
}

/** Checks the shape of saved state before anything is restored. */
export function readSessionState(value: unknown): SessionState {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new SessionStateError("session state must be an object returned by saveSession()", "$");
  const s = value as Partial<SessionState>;
  if (s.format !== "harnessx.session")
    throw new SessionStateError(
      `session state has format ${JSON.stringify(s.format)}, expected "harnessx.session"`,
      "$.format",
    );
  if (s.version !== 1)
    throw new SessionStateError(
      `session state version ${JSON.stringify(s.version)} is not supported (this version reads 1)`,
      "$.version",
    );
  if (!Array.isArray(s.messages)) throw new SessionStateError("session state messages must be an array", "$.messages");
  s.messages.forEach((m, i) => {
    if (m?.role === "custom") {
      if (typeof m.type !== "string" || typeof m.extension !== "string")
        throw new SessionStateError(`custom entry ${i} must have a type and an extension`, `$.messages[${i}]`);
      return;
    }
    if (!m || (m.role !== "user" && m.role !== "assistant") || !Array.isArray(m.content)) {
      throw new SessionStateError(
        `message ${i} must have role "user", "assistant" or "custom" and a content array`,
        `$.messages[${i}]`,
      );
    }
  });
  if (s.todos !== undefined && !Array.isArray(s.todos))
    throw new SessionStateError("session state todos must be an array", "$.todos");
  if (
    s.extensions !== undefined &&
    (typeof s.extensions !== "object" || s.extensions === null || Array.isArray(s.extensions))
  ) {
    throw new SessionStateError("session state extensions must be an object keyed by extension name", "$.extensions");
  }
  return {
    format: "harnessx.session",
    version: 1,
    sessionId: String(s.sessionId ?? ""),
    messages: s.messages,
    todos: s.todos ?? [],
    extensions: s.extensions ?? {},
  };
}
