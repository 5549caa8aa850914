import { CancelledError, ExtensionError, HarnessError, RunError, toError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import type { RecoveryReason } from "../hooks/payloads.js";
import type { AssistantMessage, ToolCallBlock, ToolResultBlock } from "../types/content.js";
import { DurableRun } from "../durable/durable-run.js";
import { decideFromJournal, newCounters, type RestoredRun } from "../durable/restored-run.js";
import type { RunCounters } from "../durable/journal-entry.js";
import type { ProviderResponse, StopReason } from "../types/provider.js";
import { textOf } from "./content.js";
import { callModelWithRecovery, type ModelStep } from "./model-step.js";
import { recoveryFor, type ReplyRecovery, type ReplyView } from "./recoveries.js";
import { RepetitionGuard } from "./repetition.js";
import { beginRun } from "./run-start.js";
import type { ApprovalDecision, PendingApproval, RunResult, RunStatus } from "./run-types.js";
import { currentScope, inScope } from "../spans/scopes.js";
import { addDelegated, listParent, runProgress, type ParentRun } from "../subagents/parent-run.js";
import { parentView } from "../subagents/parent-view.js";
import type { SpanContext } from "../spans/span-context.js";
import { errorSource } from "./error-source.js";
import { fire, type EngineServices, type RunSink } from "./services.js";
import { finalCallDue } from "./final-call.js";
import { WorkClock } from "../budgets/work-clock.js";
import { applyDecisions, pendingOf, type SuspendedTurn } from "./approvals.js";
import { planCalls } from "./plan-calls.js";
import { executePlanned } from "./tool-phase.js";

/** One run of the model/tool loop, from a user message to a terminal result or an approval wait. */
export class RunLoop {
  /** Counts, budgets and text of the run: what a durable run's snapshots save (`finalCall`: why the model must answer without tools). */
  private readonly counters: RunCounters;
  private readonly clock: WorkClock;
  private suspended: SuspendedTurn | undefined;
  private readonly repetition: RepetitionGuard | undefined;
  private signal: AbortSignal | undefined;
  private sink!: RunSink;
  private runSpan: SpanContext | undefined;
  private readonly durable: DurableRun | undefined;
  /** The run whose tool call this one started inside (`parent` when it is a subagent's run). */
  private parentRunId: string | undefined;
  private unlist: (() => void) | undefined;

  constructor(private readonly services: EngineServices, readonly runId: string, readonly input: string, private readonly restored?: RestoredRun, private readonly parent?: ParentRun) {
    this.counters = restored ? structuredClone(restored.counters) : newCounters(services.config.maxTokens);
    this.clock = new WorkClock(this.counters.elapsedMs);
    const rep = services.config.repetition;
    this.repetition = rep ? new RepetitionGuard(rep.threshold) : undefined;
    this.durable = services.durable ? new DurableRun(services, services.durable, runId) : undefined;
  }

  get awaitingApproval(): boolean {
    return this.suspended !== undefined;
  }

  /** Runs the turn inside the run's span scope: every event of the run, however deep, belongs to it. */
  start(sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    this.parentRunId = currentScope()?.runId;
    this.runSpan = this.restored?.span ?? this.services.spans.open("agent", this.services.config.name, this.runId);
    return inScope({ runId: this.runId, span: this.runSpan }, () => (this.restored ? this.continueInScope(this.restored, sink, signal) : this.startInScope(sink, signal)));
  }

  private async startInScope(sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    this.bind(sink, signal);
    await this.started(false);
    this.durable?.begin(this.input, this.runSpan!);
    try {
      // A command that only acted ends the turn here: nothing goes to the model.
      if (!(await beginRun(this.services, this.input))) return await this.finish("completed");
      return await this.loop();
    } catch (err) {
      return this.fail(err);
    }
  }

  /** Continues the run under the same span: a resumed run is one span, paused in between. */
  resume(decisions: Record<string, ApprovalDecision>, sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    if (!this.runSpan) return Promise.reject(new HarnessError("not_awaiting_approval", `run ${this.runId} is not waiting for approval`));
    return inScope({ runId: this.runId, span: this.runSpan }, () => this.resumeInScope(decisions, sink, signal));
  }

  private async resumeInScope(decisions: Record<string, ApprovalDecision>, sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    const suspended = this.suspended;
    if (!suspended) throw new HarnessError("not_awaiting_approval", `run ${this.runId} is not waiting for approval`);
    const decided = applyDecisions(suspended.planned, decisions);
    this.bind(sink, signal);
    this.suspended = undefined;
    await this.started(true);
    try {
      await this.durable?.decided(this.counters.iteration, decisions);
      const toRun = decided.filter((p) => !suspended.done.has(p.call.id));
      const more = await executePlanned(this.services, toRun, this.phaseContext());
      for (const [id, r] of more) suspended.done.set(id, r);
      this.pushResults(suspended.blocks, suspended.done);
      await this.afterToolTurn(suspended.blocks);
      return await this.loop();
    } catch (err) {
      return this.fail(err);
    }
  }

  /** A durable run rebuilt from its journal in this process: it goes on from its last committed phase. */
  private async continueInScope(restored: RestoredRun, sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    this.bind(sink, signal);
    const replay = this.durable!.restored(restored.after, this.services.memory.length);
    await this.started(true);
    await this.recover("resumed", null, replay.report(`checkpoint of step ${this.counters.iteration + 1}`));
    try {
      return await this.loop();
    } catch (err) {
      return this.fail(err);
    }
  }

  private started(resumed: boolean): Promise<void> | undefined {
    const attributes = this.services.runAttributes();
    const durable = this.durable ? { durable: true, ...(this.restored ? { restored: true } : {}) } : {};
    const parent = this.parentRunId ? { parentRunId: this.parentRunId } : {};
    return fire(this.services, HookEvent.AGENT_START, { runId: this.runId, input: this.input, model: this.services.config.model, resumed, ...durable, ...(attributes ? { attributes } : {}), ...parent });
  }

  private bind(sink: RunSink, signal: AbortSignal | undefined): void {
    this.clock.start();
    this.sink = sink;
    this.signal = signal;
    this.durable?.bind(sink);
    this.unlist = listParent(parentView(this.services, this.runId, this.counters, () => runProgress(this.runId, this.counters, this.clock.elapsedMs), this.parent));
  }

  private phaseContext() {
    return { runId: this.runId, signal: this.signal, sink: this.sink, durable: this.durable?.toolPhase(this.counters.iteration), parent: this.parent };
  }

  private modelStep(): ModelStep {
    return { counters: this.counters, durable: this.durable, sink: this.sink, signal: this.signal, recoveryCount: (reason) => this.recoveryCount(reason), recover: (reason, budget, detail) => this.recover(reason, budget, detail) };
  }

  /** The counters as a snapshot saves them. */
  private countersNow(): RunCounters {
    return { ...structuredClone(this.counters), elapsedMs: this.clock.elapsedMs };
  }

  private async loop(): Promise<RunResult> {
    for (;;) {
      await this.durable?.stepStart(this.countersNow());
      if (this.signal?.aborted) throw new CancelledError();
      if (!this.counters.finalCall) await this.checkLimits();
      this.counters.iteration++;
      // Hooks answer undefined when no observer is async: awaiting that would still cost a promise
      // (and an async-context hop) per event on the engine's path, so only a promise is awaited.
      const started = fire(this.services, HookEvent.LOOP_ITERATION_START, { iteration: this.counters.iteration });
      if (started) await started;
      const response = await callModelWithRecovery(this.services, this.modelStep());
      const calls = response.content.filter((b): b is ToolCallBlock => b.type === "tool_call");
      const text = textOf(response.content);
      if (text.trim() !== "") this.counters.lastText = text;

      const reply = this.view(response.stopReason, calls, text);
      const recovery = recoveryFor(reply, (reason) => this.recoveryCount(reason));
      if (!recovery?.dropReply) this.store(response);
      if (recovery) {
        await this.recoverFrom(recovery, reply);
        continue;
      }
      if (calls.length === 0 || this.counters.finalCall) {
        if (this.counters.finalCall && text.trim() === "") return this.noFinalAnswer(calls.length);
        this.counters.textParts.push(text);
        await this.endIteration(0);
        return this.finish("completed");
      }

      const asked = await planCalls(this.services, calls, this.phaseContext());
      const planned = this.durable ? decideFromJournal(this.durable, asked, this.counters.iteration) : asked;
      const done = await executePlanned(this.services, planned.filter((p) => !p.needsApproval), this.phaseContext());
      const pending = pendingOf(planned);
      if (pending.length > 0) {
        this.suspended = { blocks: calls, planned, done };
        return this.pause(pending);
      }
      this.pushResults(calls, done);
      await this.afterToolTurn(calls);
    }
  }

  /** Makes the next call the last, without tools, when the step limit or a run limit is reached. */
  private async checkLimits(): Promise<void> {
    const due = finalCallDue(this.services, this.counters.iteration, runProgress(this.runId, this.counters, this.clock.elapsedMs), this.parent);
    if (!due) return;
    this.counters.finalCall = due.why;
    await this.recover(due.reason, null, due.detail);
    this.tell(due.nudge);
  }

  private view(stopReason: StopReason, calls: readonly ToolCallBlock[], text: string): ReplyView {
    const open = this.services.todos.current.filter((t) => t.status !== "completed").length;
    return { stopReason, calls, text, finalCall: this.counters.finalCall !== undefined, openTodos: open, replyBudget: this.counters.replyBudget, maxReplyTokens: this.services.config.maxReplyTokens };
  }

  /** Keeps the reply in the history; the final call's reply without the tool calls it was told not to make. */
  private store(response: ProviderResponse): void {
    const content = this.counters.finalCall ? response.content.filter((b) => b.type !== "tool_call") : response.content;
    if (content.length > 0) this.services.memory.push({ role: "assistant", content } satisfies AssistantMessage);
  }

  /** Makes a reply recovery: the run goes on with one more model call. */
  private async recoverFrom(recovery: ReplyRecovery, reply: ReplyView): Promise<void> {
    if (recovery.keepText) this.counters.textParts.push(reply.text);
    if (recovery.replyBudget) this.counters.replyBudget = recovery.replyBudget(reply);
    await this.recover(recovery.reason, recovery.replyBudget ? this.counters.replyBudget : null);
    if (recovery.nudge) this.tell(recovery.nudge(reply));
    await this.endIteration(0);
  }

  /** Tells the model something before its next call, as a user message. */
  private tell(text: string): void {
    this.services.memory.push({ role: "user", content: [{ type: "text", text }] });
  }

  private async afterToolTurn(calls: readonly ToolCallBlock[]): Promise<void> {
    this.counters.toolCalls += calls.length;
    const ended = this.endIteration(calls.length);
    if (ended) await ended;
    const found = this.repetition?.observe(calls);
    if (found && !this.counters.finalCall) {
      await fire(this.services, HookEvent.REPETITION, found);
      this.counters.finalCall = `it repeated the same tool calls ${found.laps} times`;
      this.tell(`You have repeated the same tool calls ${found.laps} times. Stop calling tools and answer with what you have.`);
    }
  }

  /** The tool-free final call got tool calls (or nothing) back: completing with empty text would pass silence off as an answer. */
  private async noFinalAnswer(toolCalls: number): Promise<never> {
    await this.recover("no_final_answer", null);
    await this.endIteration(0);
    if (this.counters.textParts.join("").trim() === "") this.counters.textParts.push(this.counters.lastText);
    const asked = toolCalls > 0 ? `asked for ${toolCalls} more tool call(s)` : "gave an empty reply";
    throw new RunError("no_final_answer", `the model ${asked} instead of answering after it was told to stop calling tools (${this.counters.finalCall}); result.text holds the last text it wrote`);
  }

  private pushResults(blocks: readonly ToolCallBlock[], done: Map<string, ToolResultBlock>): void {
    const content = blocks.map((b) => done.get(b.id)).filter((r): r is ToolResultBlock => r !== undefined);
    this.services.memory.push({ role: "user", content });
  }

  private endIteration(toolCalls: number): Promise<void> | undefined {
    return fire(this.services, HookEvent.LOOP_ITERATION_END, { iteration: this.counters.iteration, toolCalls });
  }

  /** Recoveries of `reason` made so far in the run. */
  private recoveryCount(reason: RecoveryReason): number {
    return this.counters.recoveries[reason] ?? 0;
  }

  /** Counts one more recovery of `reason` and reports it (RECOVERY). */
  private recover(reason: RecoveryReason, replyBudget: number | null, detail?: string): Promise<void> | undefined {
    const attempt = this.recoveryCount(reason) + 1;
    this.counters.recoveries[reason] = attempt;
    return fire(this.services, HookEvent.RECOVERY, { reason, attempt, replyBudget, ...(detail !== undefined ? { detail } : {}) });
  }

  private result(status: RunStatus, error?: HarnessError, pending: PendingApproval[] = []): RunResult {
    const { textParts, usage, cost, modelCalls } = this.counters;
    return { status, text: textParts.join(""), ...(error ? { error } : {}), pending, usage: { ...usage, cost: { ...cost } }, runId: this.runId, modelCalls };
  }

  private async pause(pending: PendingApproval[]): Promise<RunResult> {
    this.clock.pause();
    this.unlist?.();
    const result = this.result("awaiting_approval", undefined, pending);
    // Not terminal (no AGENT_END), but observers such as recorders need to know the run now waits.
    if (this.durable) await this.durable.waiting(this.counters.iteration, pending.map((p) => p.id));
    else await fire(this.services, HookEvent.CHECKPOINT, { sessionId: this.services.info.sessionId, runId: this.runId, status: "awaiting_approval", phase: "approval_wait" });
    this.sink.push({ type: "result", result });
    return result;
  }

  private async finish(status: RunStatus, error?: HarnessError): Promise<RunResult> {
    const result = this.result(status, error);
    if (status === "completed") {
      try {
        await this.services.extensions.turnSuccess(result.text);
      } catch (err) {
        return this.fail(err);
      }
    }
    if (status !== "awaiting_approval") await this.durable?.end(status);
    this.unlist?.();
    this.parent?.absorb(addDelegated({ modelCalls: result.modelCalls, usage: result.usage }, this.counters.delegated));
    await fire(this.services, HookEvent.AGENT_END, { result });
    await this.services.extensions.turnEnd(result);
    this.sink.push({ type: "result", result });
    return result;
  }

  private async fail(err: unknown): Promise<RunResult> {
    if (err instanceof CancelledError || this.signal?.aborted) return this.finish("cancelled", err instanceof CancelledError ? err : new CancelledError());
    const error = err instanceof HarnessError ? err : new RunError("run_failed", toError(err).message, { cause: err });
    await fire(this.services, HookEvent.ERROR, { source: errorSource(error), error, ...(error instanceof ExtensionError ? { extension: error.extension } : {}) });
    return this.finish("failed", error);
  }
}
