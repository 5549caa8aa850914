import { RunError } from "../errors.js";
import type { RecoveryReason } from "../hooks/payloads.js";
import type { ToolCallBlock } from "../types/content.js";
import type { StopReason } from "../types/provider.js";

/** What a reply recovery decides on: the model's reply and where the run stands. */
export interface ReplyView {
  readonly stopReason: StopReason;
  readonly calls: readonly ToolCallBlock[];
  /** The reply's text blocks, joined. */
  readonly text: string;
  /** The model was told to answer without tools (the final call). */
  readonly finalCall: boolean;
  /** Items of the task list not yet completed. */
  readonly openTodos: number;
  /** The reply budget of the call that produced this reply. */
  readonly replyBudget: number;
  readonly maxReplyTokens: number;
}

/**
 * A reply the loop does not accept as it is, and how the run goes on from it: one more model
 * call, after a `RECOVERY` event (`attempt` counts this reason in the run).
 */
export interface ReplyRecovery {
  reason: RecoveryReason;
  applies(reply: ReplyView): boolean;
  /** Recoveries of this reason one run may make. */
  limit: number;
  /** Past the limit the run fails with this error; without it the rule just stops applying. */
  exhausted?(reply: ReplyView): RunError;
  /** The reply is left out of the history (it cannot be sent back as it is). */
  dropReply?: boolean;
  /** The reply's text starts the answer; the next reply continues it. */
  keepText?: boolean;
  /** The reply budget of the next call (reported as the event's `replyBudget`). */
  replyBudget?(reply: ReplyView): number;
  /** What the model is told before the next call. */
  nudge?(reply: ReplyView): string;
}

const blank = (reply: ReplyView) => reply.text.trim() === "";
/** A reply that would end the run: no tool calls, and not the final call (which has its own ending). */
const ending = (reply: ReplyView) => reply.calls.length === 0 && !reply.finalCall;

/** The reply recoveries, in the order they are tried: the first that applies (within its limit) is made. */
export const REPLY_RECOVERIES: readonly ReplyRecovery[] = [
  {
    reason: "truncated_tool_call",
    applies: (r) => r.stopReason === "max_tokens" && r.calls.length > 0,
    limit: 2,
    exhausted: (r) =>
      new RunError(
        "truncated_tool_call",
        `a tool call was still cut off at ${r.replyBudget} tokens after 2 larger budgets`,
      ),
    dropReply: true,
    replyBudget: (r) => Math.min(r.replyBudget * 2, r.maxReplyTokens),
  },
  {
    reason: "malformed_tool_input",
    applies: (r) => r.calls.some((c) => c.parseError),
    limit: 1,
    dropReply: true,
  },
  {
    reason: "paused_turn",
    applies: (r) => r.stopReason === "pause_turn",
    limit: 5,
    exhausted: () => new RunError("paused_turn", "the provider paused the turn more than 5 times"),
    keepText: true,
  },
  {
    reason: "truncated_text",
    applies: (r) => ending(r) && r.stopReason === "max_tokens",
    limit: 3,
    keepText: true,
    nudge: () =>
      "Your reply was cut off at the length limit. Continue exactly where it stopped, without repeating anything.",
  },
  {
    reason: "empty_reply",
    applies: (r) => ending(r) && blank(r),
    limit: 1,
    nudge: () => "Your last reply was empty. Continue with the task, or give your answer.",
  },
  {
    reason: "unfinished_plan",
    applies: (r) => ending(r) && blank(r) && r.openTodos > 0,
    limit: 1,
    nudge: (r) => `Your task list still has ${r.openTodos} open item(s). Finish them, or say what is left and why.`,
  },
];

/**
 * The recovery a reply calls for: the first rule that applies and has attempts left. A rule
 * that applies with none left fails the run when it says so, and is passed over otherwise.
 */
export function recoveryFor(
  reply: ReplyView,
  recoveryCount: (reason: RecoveryReason) => number,
  rules: readonly ReplyRecovery[] = REPLY_RECOVERIES,
): ReplyRecovery | undefined {
  for (const rule of rules) {
    if (!rule.applies(reply)) continue;
    if (recoveryCount(rule.reason) < rule.limit) return rule;
    if (rule.exhausted) throw rule.exhausted(reply);
  }
  return undefined;
}
