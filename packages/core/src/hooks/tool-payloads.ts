import type { ToolCall, ToolResult } from "../types/content.js";
import type { PermissionDecision } from "../permissions/decision.js";
import type { TodoItem } from "../tools/todos.js";

/** Payload of `TOOL_CALL_START`: a permitted tool call is about to run. A refused call emits only `TOOL_CALL_END`. */
export interface ToolCallStartData {
  /** The call, with its input as validated against the tool's schema. */
  toolCall: ToolCall;
  /** The verdict that lets it run (`decision` is `allow`; `source` is `user` after an approval). */
  permission: PermissionDecision;
  /** The tool's `spanAttributes`, when it declares some. */
  attributes?: Readonly<Record<string, string | number | boolean>>;
  /** Who changed the call the model asked for in `beforeToolExecution` (the extension, else the middleware's name); absent when none did. */
  rewrittenBy?: readonly string[];
}
/**
 * Why a tool call ended the way it did. `interrupted`: a durable run resumed after its process died
 * while the call ran, and its tool is not `safe` to run twice, so it was not run again.
 */
export type ToolOutcome =
  | "executed"
  | "failed"
  | "timeout"
  | "invalid_input"
  | "unknown_tool"
  | "denied"
  | "interrupted";
/** Payload of `TOOL_CALL_END`: a tool call ended, whatever the outcome (refused calls included). */
export interface ToolCallEndData {
  /** The call after `beforeToolExecution`, with validated input when it got that far. */
  toolCall: ToolCall;
  /** After result middleware: what enters the conversation (before the length cut). */
  result: ToolResult;
  /** As the handler returned it; undefined when the handler never ran. */
  rawResult: unknown;
  /** Time from dispatch to the end of result middleware, in ms (retries included; near 0 for a refused call). */
  durationMs: number;
  /** How the call ended. */
  outcome: ToolOutcome;
  /** The verdict at dispatch; absent when the call was refused before one was resolved (unknown tool, bad input). */
  permission?: PermissionDecision;
  /** Who changed the call the model asked for in `beforeToolExecution`, as in `TOOL_CALL_START`. */
  rewrittenBy?: readonly string[];
}
/** Payload of `SKILL_INVOKED`: the model asked for a skill with `load_skill`. */
export interface SkillInvokedData {
  /** The skill name the model asked for. */
  skill: string;
  /** False when no skill has that name (the tool call then fails). */
  found: boolean;
  /** File the skill was read from; absent when not found. */
  sourcePath?: string;
  /** Length of the skill's body in characters; 0 when not found. */
  bodyChars: number;
  /** The extension that emitted it through `ctx.report` (set by the engine, whatever the data said); absent when the engine did. */
  extension?: string;
}
/** Payload of `KNOWLEDGE_ACCESSED`: the model searched or read the knowledge bundles. */
export interface KnowledgeAccessedData {
  /** The tool used: `search_knowledge` or `read_knowledge`. */
  tool: string;
  /** The bundle searched or read; a search over every bundle names them all, joined with commas. */
  bundle: string;
  /** True when the search had hits, or the file read exists. */
  found: boolean;
  /** The search query; set by `search_knowledge` only. */
  query?: string;
  /** Hits returned (at most 8); set by `search_knowledge` only. */
  hits?: number;
  /** Path of the file asked for within the bundle; set by `read_knowledge` only. */
  path?: string;
  /** Length of the whole file in characters (0 when not found); set by `read_knowledge` only. */
  bodyChars?: number;
  /** The extension that emitted it through `ctx.report` (set by the engine, whatever the data said); absent when the engine did. */
  extension?: string;
}
/** One statement a sandbox ran (or refused): `read_result` SQL in its locked-down DuckDB. */
export interface SandboxExecData {
  /** What ran it: `duckdb` for `read_result` SQL. */
  engine: string;
  /** sha256 (hex) of the statement text: which statement it was, without its text (which may quote data). */
  statementSha256: string;
  /** The tool that asked for it. */
  tool: string;
  /** Rows answered (0 when refused or failed). */
  rows: number;
  /** Time the statement took, in ms, refused and failed ones included. */
  durationMs: number;
  /** True when the sandbox refused it (not a single SELECT, a forbidden function, a limit hit). */
  refused: boolean;
  /** Why it was refused or failed (an error code such as `sql_refused`, `timeout`, `sql_failed`). */
  code?: string;
  /** The extension that emitted it through `ctx.report` (set by the engine, whatever the data said); absent when the engine did. */
  extension?: string;
}
/** Payload of `TODOS_UPDATED`: the model replaced its task list with `write_todos`. */
export interface TodosUpdatedData {
  /** The whole new list, in the model's order. */
  todos: TodoItem[];
  /** Items whose status is `completed`. */
  completed: number;
  /** Items in the list. */
  total: number;
  /** Text of the first item in progress; null when none is. */
  inProgress: string | null;
}
