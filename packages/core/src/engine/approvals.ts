import { HarnessError } from "../errors.js";
import type { ToolCallBlock, ToolResultBlock } from "../types/content.js";
import type { ApprovalDecision, PendingApproval } from "./run-types.js";
import type { PlannedCall } from "./tool-phase.js";

/** A turn's tool calls waiting for approval decisions, with the results of those that already ran. */
export interface SuspendedTurn {
  blocks: ToolCallBlock[];
  planned: PlannedCall[];
  done: Map<string, ToolResultBlock>;
}

/** Applies the user's answers to a suspended turn: approved calls run (re-checked at dispatch), denied ones are refused. */
export function applyDecisions(
  planned: readonly PlannedCall[],
  decisions: Record<string, ApprovalDecision>,
): PlannedCall[] {
  const missing = planned.filter((p) => p.needsApproval && !(p.call.id in decisions)).map((p) => p.call.id);
  const bad = Object.entries(decisions).filter(([, d]) => d !== "approve" && d !== "deny");
  if (missing.length)
    throw new HarnessError(
      "approval_missing",
      `resume needs a decision ("approve" or "deny") for every pending call; missing: ${missing.join(", ")}`,
    );
  if (bad.length)
    throw new HarnessError(
      "approval_invalid",
      `decisions must be "approve" or "deny"; got ${bad.map(([id, d]) => `${id}=${JSON.stringify(d)}`).join(", ")}`,
    );
  return planned.map((p) => (p.needsApproval ? decide(p, decisions[p.call.id]!) : p));
}

/** A waiting call with the user's decision applied: approved, it runs (re-checked at dispatch); denied, it is refused. */
export function decide(p: PlannedCall, decision: ApprovalDecision): PlannedCall {
  if (decision === "approve")
    return {
      ...p,
      needsApproval: false,
      permission: { decision: "allow", source: "user", reason: "approved by the user" },
    };
  return {
    ...p,
    needsApproval: false,
    permission: { decision: "deny", source: "user", reason: "denied by the user" },
    refusal: { outcome: "denied", message: `Error: the user denied the call to "${p.call.name}".` },
  };
}

/** The calls that wait for a human's decision, as `RunResult.pending` lists them. */
export function pendingOf(planned: readonly PlannedCall[]): PendingApproval[] {
  return planned
    .filter((p) => p.needsApproval)
    .map((p) => ({ id: p.call.id, toolCall: p.call, reason: p.permission?.reason ?? "approval required" }));
}
