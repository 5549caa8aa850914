// What the agent process and its query process (sandbox-child.ts) say to each other over IPC.
// Types only, so both sides import it without loading the other's code.
import type { JsonValue } from "@harnessx/core/extension";

export interface ColumnInfo {
  name: string;
  type: string;
}

export interface QueryLimits {
  timeoutMs: number;
  maxRows: number;
  /** Characters of JSON rows returned at most. */
  maxChars: number;
}

export interface QueryAnswer {
  columns: ColumnInfo[];
  rows: Array<Record<string, JsonValue>>;
  /** Set when rows were left out (row or size cap); says how to get the rest. */
  note?: string;
}

export interface LockSettings {
  /** DuckDB `memory_limit` (its buffer manager). */
  memoryLimit: string;
  /** DuckDB `max_temp_directory_size`: what a query may swap to disk. */
  maxTempSize: string;
  /** Bytes the process may grow past its size once the table is loaded before it kills itself. */
  growthLimitBytes: number;
}

export type SandboxRequest =
  | { id: number; op: "trusted"; sql: string }
  | { id: number; op: "lock"; settings: LockSettings }
  | { id: number; op: "query"; sql: string; limits: QueryLimits };

/** A refusal or failure the model can act on; `code` becomes `read_result_<code>`. */
export interface SandboxFailure {
  code: string;
  message: string;
}

export type SandboxReply =
  | { id: number; ok: true; value: JsonValue[][] | QueryAnswer | null }
  | ({ id: number; ok: false } & SandboxFailure);

export function timeoutMessage(timeoutMs: number): string {
  return `the query was stopped after ${timeoutMs} ms (time limit). Make it cheaper: filter with WHERE, aggregate, add LIMIT, or avoid unbounded recursion and huge constant lists.`;
}

/** Written to stderr by the query process just before it kills itself for using too much memory. */
export const MEMORY_MARKER = "harnessx-sandbox: memory limit exceeded";
