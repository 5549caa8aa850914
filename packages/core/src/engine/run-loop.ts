import { CancelledError, HarnessError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import type { ToolCallBlock, ToolResultBlock } from "../types/content.js";
import { decideFromJournal, newCounters, type RestoredRun } from "../durable/restored-run.js";
import { callModelWithRecovery } from "./model-step.js";
import { RepetitionGuard } from "./repetition.js";
import { beginRun } from "./run-start.js";
import type { ApprovalDecision, RunResult } from "./run-types.js";
import { currentScope, inScope } from "../spans/scopes.js";
import type { ParentRun } from "../subagents/parent-run.js";
import type { SpanContext } from "../spans/span-context.js";
import { fire, type EngineServices, type RunSink } from "./services.js";
import { finalCallDue } from "./final-call.js";
import { applyDecisions, pendingOf, type SuspendedTurn } from "./approvals.js";
import { planCalls } from "./plan-calls.js";
import { executePlanned, type ToolPhaseContext } from "./tool-phase.js";
import { RunState } from "./run-state.js";
import { endRun, failRun, pauseRun } from "./run-end.js";
import { takeReply } from "./take-reply.js";
import type { RunLabels } from "./run-labels.js";

/** What a `RunLoop` runs: a new run, a subagent's run under its parent's tool call, or a durable run rebuilt from its journal. */
export interface RunLoopOptions {
  /** The agent's parts the run works with. */
  services: EngineServices;
  runId: string;
  /** The user's message. */
  input: string;
  /** Set when a durable run is rebuilt from its journal: the counters, span and commits it goes on from. */
  restored?: RestoredRun;
  /** Set in a subagent's run: the run whose tool call started it. */
  parent?: ParentRun;
  /** The run's metadata and tags, checked and merged with the agent's. */
  labels?: RunLabels;
}

/** One run of the model/tool loop, from a user message to a terminal result or an approval wait. */
export class RunLoop {
  readonly runId: string;
  readonly input: string;
  private readonly services: EngineServices;
  private readonly restored: RestoredRun | undefined;
  private readonly run: RunState;
  private suspended: SuspendedTurn | undefined;
  private readonly repetition: RepetitionGuard | undefined;
  private runSpan: SpanContext | undefined;
  /** The run whose tool call this one started inside (`parent` when it is a subagent's run). */
  private parentRunId: string | undefined;
  private readonly labels: RunLabels;

  constructor(options: RunLoopOptions) {
    const { services, runId, restored } = options;
    this.runId = runId;
    this.input = options.input;
    this.labels = options.labels ?? {};
    this.services = services;
    this.restored = restored;
    const counters = restored ? structuredClone(restored.counters) : newCounters(services.config.maxTokens);
    this.run = new RunState(services, runId, counters, options.parent);
    const rep = services.config.repetition;
    this.repetition = rep ? new RepetitionGuard(rep.threshold) : undefined;
  }

  get awaitingApproval(): boolean {
    return this.suspended !== undefined;
  }

  /** Runs the turn inside the run's span scope: every event of the run, however deep, belongs to it. */
  start(sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    this.parentRunId = currentScope()?.runId;
    this.runSpan = this.restored?.span ?? this.services.spans.open("agent", this.services.config.name, this.runId);
    return inScope({ runId: this.runId, span: this.runSpan }, () =>
      this.restored ? this.continueInScope(this.restored, sink, signal) : this.startInScope(sink, signal),
    );
  }

  private async startInScope(sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    this.run.bind(sink, signal);
    await this.started(false);
    this.run.durable?.begin(this.input, this.runSpan!);
    try {
      // A command that only acted ends the turn here: nothing goes to the model.
      if (!(await beginRun(this.services, this.input))) return await endRun(this.run, "completed");
      return await this.loop();
    } catch (err) {
      return failRun(this.run, err);
    }
  }

  /** Continues the run under the same span: a resumed run is one span, paused in between. */
  resume(decisions: Record<string, ApprovalDecision>, sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    if (!this.runSpan)
      return Promise.reject(new HarnessError("not_awaiting_approval", `run ${this.runId} is not waiting for approval`));
    return inScope({ runId: this.runId, span: this.runSpan }, () => this.resumeInScope(decisions, sink, signal));
  }

  private async resumeInScope(
    decisions: Record<string, ApprovalDecision>,
    sink: RunSink,
    signal?: AbortSignal,
  ): Promise<RunResult> {
    const suspended = this.suspended;
    if (!suspended) throw new HarnessError("not_awaiting_approval", `run ${this.runId} is not waiting for approval`);
    const decided = applyDecisions(suspended.planned, decisions);
    this.run.bind(sink, signal);
    this.suspended = undefined;
    await this.started(true);
    try {
      await this.run.durable?.decided(this.run.counters.iteration, decisions);
      const toRun = decided.filter((p) => !suspended.done.has(p.call.id));
      const more = await executePlanned(this.services, toRun, this.phaseContext());
      for (const [id, r] of more) suspended.done.set(id, r);
      this.pushResults(suspended.blocks, suspended.done);
      await this.afterToolTurn(suspended.blocks);
      return await this.loop();
    } catch (err) {
      return failRun(this.run, err);
    }
  }

  /** A durable run rebuilt from its journal in this process: it goes on from its last committed phase. */
  private async continueInScope(restored: RestoredRun, sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    this.run.bind(sink, signal);
    const replay = this.run.durable!.restored(restored.after, this.services.memory.length);
    await this.started(true);
    await this.run.recover("resumed", null, replay.report(`checkpoint of step ${this.run.counters.iteration + 1}`));
    try {
      return await this.loop();
    } catch (err) {
      return failRun(this.run, err);
    }
  }

  private started(resumed: boolean): Promise<void> | undefined {
    const attributes = this.services.runAttributes();
    const durable = this.run.durable ? { durable: true, ...(this.restored ? { restored: true } : {}) } : {};
    const parent = this.parentRunId ? { parentRunId: this.parentRunId } : {};
    const { metadata, tags } = this.labels;
    return fire(this.services, HookEvent.AGENT_START, {
      runId: this.runId,
      input: this.input,
      model: this.services.config.model,
      resumed,
      ...durable,
      ...(attributes ? { attributes } : {}),
      ...parent,
      ...(metadata ? { metadata } : {}),
      ...(tags ? { tags } : {}),
    });
  }

  private phaseContext(): ToolPhaseContext {
    const { signal, sink, durable, counters, parent } = this.run;
    return { runId: this.runId, signal, sink, durable: durable?.toolPhase(counters.iteration), parent };
  }

  private async loop(): Promise<RunResult> {
    const { counters, durable } = this.run;
    for (;;) {
      await durable?.stepStart(this.run.countersNow());
      if (this.run.signal?.aborted) throw new CancelledError();
      if (!counters.finalCall) await this.checkLimits();
      counters.iteration++;
      // Hooks answer undefined when no observer is async: awaiting that would still cost a promise
      // (and an async-context hop) per event on the engine's path, so only a promise is awaited.
      const started = fire(this.services, HookEvent.LOOP_ITERATION_START, { iteration: counters.iteration });
      if (started) await started;
      const response = await callModelWithRecovery(this.services, this.run);
      const reply = await takeReply(this.run, response);
      if (reply.next === "call_again") continue;
      if (reply.next === "answered") return endRun(this.run, "completed");

      const { calls } = reply;
      const asked = await planCalls(this.services, calls, this.phaseContext());
      const planned = durable ? decideFromJournal(durable, asked, counters.iteration) : asked;
      const done = await executePlanned(
        this.services,
        planned.filter((p) => !p.needsApproval),
        this.phaseContext(),
      );
      const pending = pendingOf(planned);
      if (pending.length > 0) {
        this.suspended = { blocks: calls, planned, done };
        return pauseRun(this.run, pending);
      }
      this.pushResults(calls, done);
      await this.afterToolTurn(calls);
    }
  }

  /** Makes the next call the last, without tools, when the step limit or a run limit is reached. */
  private async checkLimits(): Promise<void> {
    const due = finalCallDue(this.services, this.run.counters.iteration, this.run.progress(), this.run.parent);
    if (!due) return;
    this.run.counters.finalCall = due.why;
    await this.run.recover(due.reason, null, due.detail);
    this.run.tell(due.nudge);
  }

  private async afterToolTurn(calls: readonly ToolCallBlock[]): Promise<void> {
    const { counters } = this.run;
    counters.toolCalls += calls.length;
    const ended = this.run.endIteration(calls.length);
    if (ended) await ended;
    const found = this.repetition?.observe(calls);
    if (found && !counters.finalCall) {
      await fire(this.services, HookEvent.REPETITION, found);
      counters.finalCall = `it repeated the same tool calls ${found.laps} times`;
      this.run.tell(
        `You have repeated the same tool calls ${found.laps} times. Stop calling tools and answer with what you have.`,
      );
    }
  }

  private pushResults(blocks: readonly ToolCallBlock[], done: Map<string, ToolResultBlock>): void {
    const content = blocks.map((b) => done.get(b.id)).filter((r): r is ToolResultBlock => r !== undefined);
    this.services.memory.push({ role: "user", content });
  }
}
