import { reachedLimit, type RunProgress } from "../budgets/run-limit.js";
import type { RunCounters } from "../durable/journal-entry.js";
import { authorize } from "../engine/authorize.js";
import type { EngineServices } from "../engine/services.js";
import type { PermissionDecision } from "../permissions/decision.js";
import { addDelegated, combinedProgress, type ParentRun } from "./parent-run.js";

/**
 * A running run as its subagents' parent: the child's calls must pass this run's permissions
 * (and its own parent's), the child's spending is checked against this run's limits (and its
 * parent's), and an ended child's spending is added to `counters.delegated`.
 */
export function parentView(
  services: EngineServices,
  runId: string,
  counters: RunCounters,
  progress: () => RunProgress,
  parent: ParentRun | undefined,
): ParentRun {
  return {
    runId,
    authorize(call, tool, phase, owner) {
      const verdict = authorize(services, call, tool, phase, runId, parent, owner);
      return verdict instanceof Promise ? verdict.then(asParents) : asParents(verdict);
    },
    reached(child) {
      const combined = combinedProgress(progress(), child);
      return reachedLimit(services.runLimits, combined) ?? parent?.reached(combined);
    },
    absorb(spent) {
      counters.delegated = addDelegated(spent, counters.delegated);
    },
  };
}

/** The parent's verdict as the child reports it: `parent:<who decided>`, so a denial says it came from above. */
function asParents(decision: PermissionDecision): PermissionDecision {
  return { ...decision, source: decision.source.startsWith("parent:") ? decision.source : `parent:${decision.source}` };
}
