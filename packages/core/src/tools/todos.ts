import { tool, type Tool } from "./tool.js";

export type TodoStatus = "pending" | "in_progress" | "completed";

export interface TodoItem {
  content: string;
  status: TodoStatus;
}

/** Summary counts sent with every `TODOS_UPDATED`. */
export function summarizeTodos(todos: TodoItem[]): { completed: number; total: number; inProgress: string | null } {
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
