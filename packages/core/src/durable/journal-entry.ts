import type { CallCost, RunCost } from "../cost/call-cost.js";
import type { ToolOutcome } from "../hooks/tool-payloads.js";
import type { ConversationEntry } from "../messages/custom-messages.js";
import type { SavedExtensionState } from "../session/session-state.js";
import type { TodoItem } from "../tools/todos.js";
import type { ToolResult, Usage } from "../types/content.js";
import type { JsonValue } from "../types/json.js";
import type { ProviderResponse } from "../types/provider.js";
import type { ApprovalDecision, RunStatus } from "../engine/run-types.js";

export type { DurablePhase } from "./durable-phase.js";

/** The loop's own counters, saved with every snapshot so a resumed run goes on counting where it stopped. */
export interface RunCounters {
  /** Loop steps begun. */
  iteration: number;
  modelCalls: number;
  toolCalls: number;
  usage: Usage;
  cost: RunCost;
  /** Recoveries made so far, by reason. */
  recoveries: Record<string, number>;
  /** The reply budget of the next model call. */
  replyBudget: number;
  /** Why the next call is the last one, without tools (a limit was reached); absent otherwise. */
  finalCall?: string;
  /** Text the run's answer is made of so far. */
  textParts: string[];
  /** The last non-blank text the model wrote. */
  lastText: string;
  /** Working time spent, in ms (approval waits left out). */
  elapsedMs: number;
}

/** The first entry of a run's journal: what it was asked and the identity it keeps when resumed. */
export interface RunStartEntry {
  phase: "run_start";
  runId: string;
  sessionId: string;
  input: string;
  /** The run span's W3C trace and span ids (and its parent's, when it started under one). */
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

/**
 * The engine's state at the top of a loop step: the conversation (as a delta on the previous
 * snapshot when the conversation only grew), the task list, every extension's `onSaveSession`
 * state and the loop's counters.
 */
export interface SnapshotEntry {
  phase: "snapshot";
  /** Entries of the previous snapshot's conversation kept as they were (0: `entries` is the whole conversation). */
  keep: number;
  /** The entries after the kept ones. */
  entries: ConversationEntry[];
  todos: TodoItem[];
  extensions: Record<string, SavedExtensionState>;
  counters: RunCounters;
}

/** A model reply as the provider gave it, before response middleware, with its price. */
export interface ModelReplyEntry {
  phase: "model_reply";
  iteration: number;
  response: ProviderResponse;
  cost: CallCost;
}

/** A tool call about to run: committed before its handler starts, with the idempotency key it is given. */
export interface ToolStartedEntry {
  phase: "tool_started";
  iteration: number;
  callId: string;
  name: string;
  input: JsonValue;
  idempotencyKey: string;
}

/** A tool call's raw outcome, before result middleware. */
export interface ToolOutcomeEntry {
  phase: "tool_outcome";
  iteration: number;
  callId: string;
  outcome: ToolOutcome;
  result: ToolResult;
}

/** The run paused for approval of these calls. */
export interface ApprovalWaitEntry {
  phase: "approval_wait";
  iteration: number;
  pending: string[];
}

/** The human's decisions on the calls that waited. */
export interface ApprovalEntry {
  phase: "approval";
  iteration: number;
  decisions: Record<string, ApprovalDecision>;
}

/** The run ended: there is nothing left to resume. */
export interface RunEndEntry {
  phase: "run_end";
  status: Exclude<RunStatus, "awaiting_approval">;
}

/** One line of a run's durable journal (each also carries `v: 1` and `at`, its time in ms since the epoch). */
export type JournalEntry = RunStartEntry | SnapshotEntry | ModelReplyEntry | ToolStartedEntry | ToolOutcomeEntry | ApprovalWaitEntry | ApprovalEntry | RunEndEntry;

/** A journal line as written. */
export type JournalLine = JournalEntry & { v: 1; at: number };
