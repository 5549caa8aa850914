import type { CallCost, RunCost } from "../cost/call-cost.js";
import type { ToolOutcome } from "../hooks/tool-payloads.js";
import type { ConversationEntry } from "../messages/custom-messages.js";
import type { SavedExtensionState } from "../session/session-state.js";
import type { TodoItem } from "../tools/todos.js";
import type { ToolResult, Usage } from "../types/content.js";
import type { JsonValue } from "../types/json.js";
import type { ProviderResponse } from "../types/provider.js";
import type { ApprovalDecision, RunStatus } from "../engine/run-types.js";
import type { DelegatedUsage } from "../subagents/parent-run.js";

export type { DurablePhase } from "./durable-phase.js";

/** The loop's own counters, saved with every snapshot so a resumed run goes on counting where it stopped. */
export interface RunCounters {
  /** Loop steps begun. */
  iteration: number;
  /** Model calls made, replies taken from the journal included. */
  modelCalls: number;
  /** Tool calls of the steps that ended. */
  toolCalls: number;
  /** Tokens summed over the model calls. */
  usage: Usage;
  /** Their cost, and the calls without a price. */
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
  /** What the subagent runs this run called spent (counted against its budget); absent until one ends. */
  delegated?: DelegatedUsage;
}

/** The first entry of a run's journal: what it was asked and the identity it keeps when resumed. */
export interface RunStartEntry {
  /** The entry's kind. */
  phase: "run_start";
  /** The run's id, kept when it resumes. */
  runId: string;
  /** The session the run belonged to. */
  sessionId: string;
  /** The run's input, as passed to `run`. */
  input: string;
  /** The run span's W3C trace id: the resumed run stays in this trace. */
  traceId: string;
  /** The run span's id, kept when it resumes. */
  spanId: string;
  /** The span the run started under, when there was one. */
  parentSpanId?: string;
}

/**
 * The engine's state at the top of a loop step: the conversation (as a delta on the previous
 * snapshot when the conversation only grew), the task list, every extension's `onSaveSession`
 * state and the loop's counters.
 */
export interface SnapshotEntry {
  /** The entry's kind. */
  phase: "snapshot";
  /** Entries of the previous snapshot's conversation kept as they were (0: `entries` is the whole conversation). */
  keep: number;
  /** The entries after the kept ones. */
  entries: ConversationEntry[];
  /** The `write_todos` task list. */
  todos: TodoItem[];
  /** Each extension's `onSaveSession` state, by name. */
  extensions: Record<string, SavedExtensionState>;
  /** The loop's counters at the top of the step. */
  counters: RunCounters;
}

/** A model reply as the provider gave it, before response middleware, with its price. */
export interface ModelReplyEntry {
  /** The entry's kind. */
  phase: "model_reply";
  /** The step the reply belongs to. */
  iteration: number;
  /** The reply as the provider returned it. */
  response: ProviderResponse;
  /** Its price (null with a reason when unpriced). */
  cost: CallCost;
}

/** A tool call about to run: committed before its handler starts, with the idempotency key it is given. */
export interface ToolStartedEntry {
  /** The entry's kind. */
  phase: "tool_started";
  /** The step the call belongs to. */
  iteration: number;
  /** The call's id. */
  callId: string;
  /** The tool's name. */
  name: string;
  /** The validated input it runs with. */
  input: JsonValue;
  /** What the handler gets as `ctx.idempotencyKey`. */
  idempotencyKey: string;
}

/** A tool call's raw outcome, before result middleware. */
export interface ToolOutcomeEntry {
  /** The entry's kind. */
  phase: "tool_outcome";
  /** The step the call belongs to. */
  iteration: number;
  /** The call's id. */
  callId: string;
  /** How the handler ended (`executed`, `failed`, `timeout`). */
  outcome: ToolOutcome;
  /** Its result before result middleware. */
  result: ToolResult;
}

/** The run paused for approval of these calls. */
export interface ApprovalWaitEntry {
  /** The entry's kind. */
  phase: "approval_wait";
  /** The step that waits. */
  iteration: number;
  /** Ids of the calls waiting for a decision. */
  pending: string[];
}

/** The human's decisions on the calls that waited. */
export interface ApprovalEntry {
  /** The entry's kind. */
  phase: "approval";
  /** The step whose calls were decided. */
  iteration: number;
  /** Each decided call's decision, by call id. */
  decisions: Record<string, ApprovalDecision>;
}

/** The run ended: there is nothing left to resume. */
export interface RunEndEntry {
  /** The entry's kind. */
  phase: "run_end";
  /** How the run ended. */
  status: Exclude<RunStatus, "awaiting_approval">;
}

/** One line of a run's durable journal (each also carries `v: 1` and `at`, its time in ms since the epoch). */
export type JournalEntry =
  | RunStartEntry
  | SnapshotEntry
  | ModelReplyEntry
  | ToolStartedEntry
  | ToolOutcomeEntry
  | ApprovalWaitEntry
  | ApprovalEntry
  | RunEndEntry;

/** What every journal line carries besides its entry. */
export interface JournalLineStamp {
  /** The journal format's version: only 1 is read. */
  v: 1;
  /** When it was committed, in ms since the epoch. */
  at: number;
}

/** A journal line as written. */
export type JournalLine = JournalEntry & JournalLineStamp;
