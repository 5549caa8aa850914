import { tool, type Tool } from "./tool.js";

/** The state of one task: not started, being worked on (at most one, by the tool's instructions), or done. */
export type TodoStatus = "pending" | "in_progress" | "completed";

/** One task of the list the model keeps with `write_todos`. */
export interface TodoItem {
  /** What the task is, in the model's words; never empty. */
  content: string;
  /** Where the task stands. */
  status: TodoStatus;
}

/** Summary counts sent with every `TODOS_UPDATED`. */
export function summarizeTodos(todos: TodoItem[]): {
  /** Items with status `completed`. */
  completed: number;
  /** Items in the list. */
  total: number;
  /** The `content` of the first `in_progress` item; null when none is in progress. */
  inProgress: string | null;
} {
  return {
    completed: todos.filter((t) => t.status === "completed").length,
    total: todos.length,
    inProgress: todos.find((t) => t.status === "in_progress")?.content ?? null,
  };
}

/** The opt-in `write_todos` tool: the model replaces its whole task list each call. */
export function writeTodosTool(onUpdate: (todos: TodoItem[]) => void | Promise<void>): Tool {
  return tool({
    name: "write_todos",
    description:
      "write_todos replaces your task list. Send every item each time, each with content and status (pending, in_progress or completed). Keep at most one item in_progress.",
    inputSchema: {
      type: "object",
      properties: {
        todos: {
          type: "array",
          items: {
            type: "object",
            properties: {
              content: { type: "string", minLength: 1 },
              status: { type: "string", enum: ["pending", "in_progress", "completed"] },
            },
            required: ["content", "status"],
            additionalProperties: false,
          },
        },
      },
      required: ["todos"],
      additionalProperties: false,
    },
    execute: async (input) => {
      const todos = input.todos as TodoItem[];
      await onUpdate(todos);
      const { completed, total } = summarizeTodos(todos);
      return `Task list saved: ${completed}/${total} completed.`;
    },
  });
}
