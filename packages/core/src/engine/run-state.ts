import type { RunProgress } from "../budgets/run-limit.js";
import { WorkClock } from "../budgets/work-clock.js";
import { DurableRun } from "../durable/durable-run.js";
import type { RunCounters } from "../durable/journal-entry.js";
import { HookEvent } from "../hooks/events.js";
import type { RecoveryReason } from "../hooks/payloads.js";
import { listParent, runProgress, type ParentRun } from "../subagents/parent-run.js";
import { parentView } from "../subagents/parent-view.js";
import { fire, type EngineServices, type RunSink } from "./services.js";

/**
 * What the parts of one run share: its counters and working time, its journal when it is
 * durable, its parent when it is a subagent's, and where its events go while it works. The
 * model step takes it as its `ModelStep`.
 */
export class RunState {
  readonly clock: WorkClock;
  readonly durable: DurableRun | undefined;
  sink!: RunSink;
  signal: AbortSignal | undefined;
  /** Takes the run off the list of running parents; set while it works. */
  unlist: (() => void) | undefined;

  constructor(
    readonly services: EngineServices,
    readonly runId: string,
    /** Counts, budgets and text of the run: what a durable run's snapshots save (`finalCall`: why the model must answer without tools). */
    readonly counters: RunCounters,
    /** The run whose tool call started this one, when it is a subagent's run. */
    readonly parent?: ParentRun,
  ) {
    this.clock = new WorkClock(counters.elapsedMs);
    this.durable = services.durable ? new DurableRun(services, services.durable, runId) : undefined;
  }

  /** Starts (or restarts, after an approval wait) the run's work: its clock, its stream, and its place among running parents. */
  bind(sink: RunSink, signal: AbortSignal | undefined): void {
    this.clock.start();
    this.sink = sink;
    this.signal = signal;
    this.durable?.bind(sink);
    this.unlist = listParent(parentView(this.services, this.runId, this.counters, () => this.progress(), this.parent));
  }

  /** What the run and the subagents it called have spent so far, as run limits read it. */
  progress(): RunProgress {
    return runProgress(this.runId, this.counters, this.clock.elapsedMs);
  }

  /** The counters as a snapshot saves them. */
  countersNow(): RunCounters {
    return { ...structuredClone(this.counters), elapsedMs: this.clock.elapsedMs };
  }

  /** Recoveries of `reason` made so far in the run. */
  recoveryCount(reason: RecoveryReason): number {
    return this.counters.recoveries[reason] ?? 0;
  }

  /** Counts one more recovery of `reason` and reports it (RECOVERY). */
  recover(reason: RecoveryReason, replyBudget: number | null, detail?: string): Promise<void> | undefined {
    const attempt = this.recoveryCount(reason) + 1;
    this.counters.recoveries[reason] = attempt;
    return fire(this.services, HookEvent.RECOVERY, {
      reason,
      attempt,
      replyBudget,
      ...(detail !== undefined ? { detail } : {}),
    });
  }

  /** Tells the model something before its next call, as a user message. */
  tell(text: string): void {
    this.services.memory.push({ role: "user", content: [{ type: "text", text }] });
  }

  /** Reports the end of the current step (`LOOP_ITERATION_END`) with the tool calls it made. */
  endIteration(toolCalls: number): Promise<void> | undefined {
    return fire(this.services, HookEvent.LOOP_ITERATION_END, { iteration: this.counters.iteration, toolCalls });
  }
}
