import { reachedLimit, type RunProgress } from "../budgets/run-limit.js";
import type { RecoveryReason } from "../hooks/payloads.js";
import type { EngineServices } from "./services.js";
import type { ParentRun } from "../subagents/parent-run.js";

/** Why the next model call must be the last, without tools: what the loop reports and tells the model. */
export interface FinalCallDue {
  /** Kept as the run's reason for its final call (quoted if the model still gives no answer). */
  why: string;
  reason: Extract<RecoveryReason, "iteration_limit" | "budget_exhausted">;
  detail?: string;
  /** What the model is told before the call. */
  nudge: string;
}

/**
 * The step limit first, then the run limits (budgets), in registration order, then a subagent
 * run's parent's (and theirs). A run limit that
 * asks to fail throws (see `reachedLimit`).
 */
export function finalCallDue(
  services: EngineServices,
  iteration: number,
  progress: RunProgress,
  parent?: ParentRun,
): FinalCallDue | undefined {
  const max = services.config.maxIterations;
  if (iteration >= max) {
    return {
      why: `it reached the limit of ${max} steps`,
      reason: "iteration_limit",
      nudge: `You have reached the limit of ${max} steps. Answer now with what you have; no more tool calls.`,
    };
  }
  // A subagent's run spends from its parent's budget too: the parent's limits see both.
  const spent = reachedLimit(services.runLimits, progress) ?? parent?.reached(progress);
  if (spent === undefined) return undefined;
  return {
    why: spent,
    reason: "budget_exhausted",
    detail: spent,
    nudge: `This run has used up its budget: ${spent}. Answer now with what you have; no more tool calls.`,
  };
}
