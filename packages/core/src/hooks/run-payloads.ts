import type { ToolCall, Usage } from "../types/content.js";
import type { CallCost } from "../cost/call-cost.js";
import type { ModelRequest, ProviderResponse, StopReason } from "../types/provider.js";
import type { RunResult } from "../engine/run-types.js";
import type { RunMetadata } from "../engine/run-labels.js";
import type { HookEvent } from "./events.js";

/** An attribute value extensions may give the run's span (what OpenTelemetry accepts). */
export type RunAttributeValue = string | number | boolean | string[];

/** Payload of `AGENT_START`: a run began, or resumed after an approval wait. */
export interface AgentStartData {
  /** Id of the run (`run_...`); the same when it resumes. */
  runId: string;
  /** The run's input as passed to `run` (a `/command` line not yet expanded); the same on resume. */
  input: string;
  /** Model id the agent calls (its `model` setting). */
  model: string;
  /** True when the run continues after `resume`. */
  resumed: boolean;
  /** True when the run commits its phase boundaries to a durable store (`AgentOptions.durable`). */
  durable?: boolean;
  /** True when the run was rebuilt from its durable journal (`agent.resume(runId)`), usually after its process died. */
  restored?: boolean;
  /** What extensions said of the run's span (`ctx.addRunAttributes`), e.g. the MCP servers connected. */
  attributes?: Readonly<Record<string, RunAttributeValue>>;
  /**
   * The run whose tool call this run started inside (a subagent's run, `agent.asTool`); its
   * `execute_tool` span is this run's parent span. Absent for a top-level run.
   */
  parentRunId?: string;
  /** The run's metadata (`RunOptions.metadata` over `AgentOptions.metadata`); absent when neither gave any. */
  metadata?: RunMetadata;
  /** The run's tags (`AgentOptions.tags`, then `RunOptions.tags`); absent when neither gave any. */
  tags?: readonly string[];
}
/** Payload of `AGENT_END`: the run completed, failed or was cancelled. A pause for approval emits `CHECKPOINT` instead. */
export interface AgentEndData {
  /** The run's outcome, as `run` or `resume` returns it. */
  result: RunResult;
}
/** Payload of `LOOP_ITERATION_START`: a step of the loop (one model reply and the tool calls it asks for) begins. */
export interface LoopIterationData {
  /** Step number in the run, counting from 1 and continuing across `resume`. */
  iteration: number;
}
/** Payload of `LOOP_ITERATION_END`: the step ended, after its tool results, its answer or its recovery. */
export interface LoopIterationEndData {
  /** Step number, as in the matching `LOOP_ITERATION_START`. */
  iteration: number;
  /** Tool calls of the step's reply (run or refused); 0 for an answer or a recovery. */
  toolCalls: number;
}
/** Payload of `LLM_REQUEST`: a model call is about to be sent, after `beforeLlmCall`. Retries of the call emit no new one. */
export interface LlmRequestData {
  /** The composed system prompt sent with the call. */
  system: string;
  /** Model id requested. */
  model: string;
  /** Reply budget of this call, in tokens. */
  maxTokens: number;
  /** Sampling temperature; undefined when the agent sets none (the provider's default applies). */
  temperature: number | undefined;
  /** True when the reply is streamed (a `runStream` run with a provider that streams). */
  stream: boolean;
  /** Messages in the request's conversation. */
  messageCount: number;
  /** Tools offered to the model; 0 on the final call, which must answer without tools. */
  toolCount: number;
  /** Stable across iterations unless the system prompt or the tool list changed. */
  prefixKey: string;
  /** The whole request as sent, after middleware. */
  request: ModelRequest;
  /** Who returned another history from `beforeLlmCall` for this call (the extension, else the middleware's name); absent when none did. */
  historyRewrittenBy?: readonly string[];
}
/** Payload of `LLM_RESPONSE`: the provider answered a model call. A call that fails emits none. */
export interface LlmResponseData {
  /** The raw reply, before response middleware. */
  response: ProviderResponse;
  /** Name of the provider that answered (the reply's, else the agent's provider's). */
  provider: string;
  /** Model that answered (the reply's, else the one requested). */
  model: string;
  /** Tokens this call used, as the provider reported them. */
  usage: Usage;
  /** What the call cost (genai-prices, or the agent's `prices`); `usd` null with a reason when the model has no price. */
  cost: CallCost;
  /** Why the model stopped. */
  stopReason: StopReason;
  /** Wall time of the call in ms, from sending to the reply, retries and their waits included. */
  durationMs: number;
}
/** Payload of `RETRY`: a model call or a tool attempt failed and is tried again after `delayMs`. */
export interface RetryData {
  /** `model` for a model call, `tool` for a tool's attempt (see `toolCall`). */
  target: "model" | "tool";
  /** The attempt that failed, counting from 1. */
  attempt: number;
  /** Wait before the next attempt, in ms. */
  delayMs: number;
  /** Why the attempt failed: a `ProviderError` for model calls, the tool's error for tools. */
  error: Error;
  /** The call being retried; set only when `target` is `tool`. */
  toolCall?: ToolCall;
}
/** Payload of `REPETITION`: the model kept making the same tool calls, so it is told to answer without tools. */
export interface RepetitionData {
  /** Calls in the repeating pattern (1 to 4). */
  period: number;
  /** Times in a row the pattern repeated: the agent's `repetition.threshold`. */
  laps: number;
  /** Name of a tool in the pattern: the first call of the latest turn. */
  tool: string;
}
/**
 * Where an `ERROR` came from. A run that fails reports `provider`, `middleware` or `extension`
 * by its error's class (`provider` also for the engine's own `RunError`s); the other sources
 * name the part whose failure was reported without failing the run.
 */
export type ErrorSource =
  | "hook"
  | "middleware"
  | "tool"
  | "provider"
  | "policy"
  | "prompt_provider"
  | "extension"
  | "exporter"
  | "recorder";
/**
 * Payload of `ERROR`: something failed. A failing run emits it before its `AGENT_END`; other
 * failures (observers, policies, prompt providers, extensions, exporters, the recorder) are only reported.
 */
export interface ErrorData {
  /** What failed. */
  source: ErrorSource;
  /** The failure; a `HarnessError` (with its `code`) when harnessx raised it. */
  error: Error;
  /** The event whose observer failed (source `hook`). */
  event?: HookEvent;
  /** The extension the failing observer, policy, prompt fragment or work belongs to. */
  extension?: string;
  /** A count of what was lost, for exporters and the recorder. */
  dropped?: number;
}
/**
 * Payload of `CHECKPOINT`: a run reached a point worth persisting. The engine emits it when a run
 * pauses for approval and, in a durable run, once each phase boundary is committed.
 */
export interface CheckpointData {
  /** Id of the agent's session (`session_...` unless `AgentOptions.sessionId` set it). */
  sessionId: string;
  /** Id of the run (`run_...`). */
  runId: string;
  /** The run's status at that point: `running`, `awaiting_approval` for an approval pause, or how it ended. */
  status: string;
  /** Where the run stands: `approval_wait` for an approval pause; in a durable run, the `DurablePhase` committed. */
  phase: string;
  /**
   * The extension that reported it through `ctx.report` (its own checkpoint, e.g. a saved
   * session); absent when the engine did. Only the engine's change the run's status (a recording's
   * `run.json` says `awaiting_approval` for the engine's approval pause alone).
   */
  extension?: string;
}
/**
 * Why the loop made a recovery: a reply cut off (`truncated_*`), empty, with unreadable tool input
 * or paused by the provider; a refusal it could work around (`reply_limit`, `context_overflow*`);
 * the step limit or a run limit (a budget); an open task list; a final call that gave no answer;
 * a durable run rebuilt from its journal (`resumed`, its detail says what was reused); or a
 * fallback provider that answered after the ones before it failed (`fallback`, its detail says
 * which failed how and which answered).
 */
export type RecoveryReason =
  | "truncated_tool_call"
  | "truncated_text"
  | "empty_reply"
  | "reply_limit"
  | "context_overflow"
  | "context_overflow_spill"
  | "spurious_overflow"
  | "malformed_tool_input"
  | "paused_turn"
  | "iteration_limit"
  | "unfinished_plan"
  | "no_final_answer"
  | "budget_exhausted"
  | "resumed"
  | "fallback";
/** Payload of `RECOVERY`: the loop did not accept a reply or a refusal as it was and goes on with another model call. */
export interface RecoveryData {
  /** What the loop recovered from. */
  reason: RecoveryReason;
  /** Recoveries of this reason in the run, this one included. */
  attempt: number;
  /** The reply budget of the next call, or null when unchanged. */
  replyBudget: number | null;
  /** What was reached, for a run limit: e.g. "it spent $0.52 of its $0.50 budget"; for `fallback`, which providers failed how and which answered. */
  detail?: string;
}
