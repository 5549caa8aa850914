import type { SpanContext } from "../spans/span-context.js";
import { decide } from "../engine/approvals.js";
import type { PlannedCall } from "../engine/tool-phase.js";
import type { DurableRun } from "./durable-run.js";
import type { JournalEntry, RunCounters } from "./journal-entry.js";

/** What a run rebuilt from its journal starts from: its counters, its span, and what it committed after its last snapshot. */
export interface RestoredRun {
  counters: RunCounters;
  /** The run's own span, kept: the resumed run has the same trace and span ids. */
  span: SpanContext;
  after: readonly JournalEntry[];
}

/** The counters of a run that has not begun. */
export function newCounters(replyBudget: number): RunCounters {
  return {
    iteration: 0,
    modelCalls: 0,
    toolCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    cost: { usd: null, unpricedCalls: 0 },
    recoveries: {},
    replyBudget,
    textParts: [],
    lastText: "",
    elapsedMs: 0,
  };
}

/**
 * A step's planned calls in a durable run: calls interrupted by the crash are held back (or wait
 * for a human), and the approvals given before the crash apply again, so only calls nobody decided yet wait.
 */
export function decideFromJournal(durable: DurableRun, planned: PlannedCall[], iteration: number): PlannedCall[] {
  const held = durable.holdInterrupted(planned, iteration);
  const decisions = durable.decisions(iteration);
  if (!decisions) return held;
  return held.map((p) => {
    const decision = p.needsApproval ? decisions[p.call.id] : undefined;
    return decision ? decide(p, decision) : p;
  });
}
