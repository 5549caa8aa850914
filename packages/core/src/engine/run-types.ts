import type { HarnessError } from "../errors.js";
import type { ToolCall, ToolResult, Usage } from "../types/content.js";
import type { TodoItem } from "../tools/todos.js";

export type RunStatus = "completed" | "failed" | "cancelled" | "awaiting_approval";

/** A tool call waiting for a human decision; answer it with `agent.resume({ [id]: "approve" | "deny" })`. */
export interface PendingApproval {
  id: string;
  toolCall: ToolCall;
  reason: string;
}

export type ApprovalDecision = "approve" | "deny";

export interface RunResult {
  status: RunStatus;
  /** The final answer (continuations of a cut reply are joined). */
  text: string;
  error?: HarnessError;
  pending: PendingApproval[];
  /** Summed over every model call of the run, including calls after `resume`. */
  usage: Usage;
  runId: string;
  /** Model calls the run made. */
  modelCalls: number;
}

/** What `runStream` yields, in order, ending with `result`. */
export type RunEvent =
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | { type: "tool_call_start"; toolCall: ToolCall }
  | { type: "tool_call_end"; toolCall: ToolCall; result: ToolResult; durationMs: number }
  | { type: "waiting"; on: "retry"; seconds: number }
  | { type: "todos_updated"; todos: TodoItem[] }
  | { type: "result"; result: RunResult };

export interface RunOptions {
  /** Cancels the run: the result is `cancelled` and `AGENT_END` fires. */
  signal?: AbortSignal;
}
