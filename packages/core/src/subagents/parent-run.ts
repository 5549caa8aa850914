import type { RunProgress } from "../budgets/run-limit.js";
import type { RunCost } from "../cost/call-cost.js";
import { addUsage } from "../engine/content.js";
import type { RunUsage } from "../engine/run-types.js";
import type { PermissionDecision } from "../permissions/decision.js";
import type { Tool } from "../tools/tool.js";
import type { ToolCall, Usage } from "../types/content.js";

/** What the runs an agent delegated (subagent runs that returned) spent, counted against its own budget. */
export interface DelegatedUsage {
  /** Model calls of the delegated runs. */
  modelCalls: number;
  /** Their tokens and cost. */
  usage: RunUsage;
}

/**
 * The side of a running run that a subagent's run started from one of its tool calls sees:
 * its permissions (which the child may only narrow), its limits (checked with the child's
 * spending added) and where the child's spending is counted once it returns.
 */
export interface ParentRun {
  /** The parent run's id. */
  readonly runId: string;
  /** The parent's verdict for a call the child is about to make (its manager and policies, and its own parent's); `owner` registered the tool in the child. */
  authorize(
    call: ToolCall,
    tool: Tool,
    phase: "authorize" | "dispatch",
    owner: string | undefined,
  ): PermissionDecision | Promise<PermissionDecision>;
  /** Why the parent's budget is spent were the child's `progress` added to it; throws when a parent limit fails runs. */
  reached(child: RunProgress): string | undefined;
  /** Counts what an ended child spent (its own calls and its own children's) against the parent's budget. */
  absorb(spent: DelegatedUsage): void;
}

/** Runs that may be a subagent's parent now, by id: a run is listed while it runs (not while it waits for approval). */
const running = new Map<string, ParentRun>();

/** Lists `run` as a possible parent; returns the function that takes it off. */
export function listParent(run: ParentRun): () => void {
  running.set(run.runId, run);
  return () => {
    if (running.get(run.runId) === run) running.delete(run.runId);
  };
}

/** The running run with this id, if any: where a subagent tool's call came from. */
export function parentRunOf(runId: string): ParentRun | undefined {
  return running.get(runId);
}

/** A parent's progress with the child's added: the child spends from what the parent has left. */
export function combinedProgress(parent: RunProgress, child: RunProgress): RunProgress {
  const usage: RunUsage = { ...parent.usage, cost: { ...parent.usage.cost } };
  addUsage(usage, child.usage);
  usage.cost.unpricedCalls += child.usage.cost.unpricedCalls;
  if (child.usage.cost.usd !== null) usage.cost.usd = (usage.cost.usd ?? 0) + child.usage.cost.usd;
  return {
    runId: parent.runId,
    modelCalls: parent.modelCalls + child.modelCalls,
    toolCalls: parent.toolCalls + child.toolCalls,
    usage,
    elapsedMs: parent.elapsedMs,
  };
}

/** Adds what a run delegated to its own spending (`delegated` absent: nothing was). */
export function addDelegated(own: DelegatedUsage, delegated: DelegatedUsage | undefined): DelegatedUsage {
  if (!delegated) return { modelCalls: own.modelCalls, usage: { ...own.usage, cost: { ...own.usage.cost } } };
  const sum = combinedProgress(asProgress("", own), asProgress("", delegated));
  return { modelCalls: sum.modelCalls, usage: sum.usage };
}

/** A run's progress: its own counters plus what the subagents it called spent. */
export function runProgress(runId: string, own: RunCounterView, elapsedMs: number): RunProgress {
  const mine: RunProgress = {
    runId,
    modelCalls: own.modelCalls,
    toolCalls: own.toolCalls,
    usage: { ...own.usage, cost: { ...own.cost } },
    elapsedMs,
  };
  return own.delegated ? combinedProgress(mine, asProgress(runId, own.delegated)) : mine;
}

/** The counters `runProgress` reads (the loop's `RunCounters`). */
export interface RunCounterView {
  readonly modelCalls: number;
  readonly toolCalls: number;
  readonly usage: Usage;
  readonly cost: RunCost;
  readonly delegated?: DelegatedUsage;
}

function asProgress(runId: string, spent: DelegatedUsage): RunProgress {
  return { runId, modelCalls: spent.modelCalls, toolCalls: 0, usage: spent.usage, elapsedMs: 0 };
}
