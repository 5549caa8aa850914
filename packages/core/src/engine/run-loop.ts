import { CancelledError, ExtensionError, HarnessError, ProviderError, RunError, toError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import type { RecoveryReason } from "../hooks/payloads.js";
import type { AssistantMessage, ToolCallBlock, ToolResultBlock, Usage } from "../types/content.js";
import type { ProviderResponse, StopReason } from "../types/provider.js";
import { condenseHistory, shrinkHistory } from "./condense.js";
import { addUsage, textOf } from "./content.js";
import { addCost, type RunCost } from "../cost/call-cost.js";
import { callModel } from "./model-call.js";
import { recoveryFor, type ReplyRecovery, type ReplyView } from "./recoveries.js";
import { RepetitionGuard } from "./repetition.js";
import { beginRun } from "./run-start.js";
import type { ApprovalDecision, PendingApproval, RunResult, RunStatus } from "./run-types.js";
import { inScope } from "../spans/scopes.js";
import type { SpanContext } from "../spans/span-context.js";
import { errorSource } from "./error-source.js";
import { fire, type EngineServices, type RunSink } from "./services.js";
import { finalCallDue } from "./final-call.js";
import { WorkClock } from "../budgets/work-clock.js";
import { applyDecisions, executePlanned, pendingOf, planCalls, type SuspendedTurn } from "./tool-phase.js";

/** One run of the model/tool loop, from a user message to a terminal result or an approval wait. */
export class RunLoop {
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0 };
  private readonly cost: RunCost = { usd: null, unpricedCalls: 0 };
  private modelCalls = 0;
  private toolCalls = 0;
  private readonly clock = new WorkClock();
  private iteration = 0;
  private readonly textParts: string[] = [];
  private readonly recoveries = new Map<RecoveryReason, number>();
  private replyBudget: number;
  /** Why the model was told to answer without tools (set once the final call is due). */
  private finalCall: string | undefined;
  /** The last non-blank text the model wrote in this run, kept for a run that ends without an answer. */
  private lastText = "";
  private suspended: SuspendedTurn | undefined;
  private readonly repetition: RepetitionGuard | undefined;
  private signal: AbortSignal | undefined;
  private sink!: RunSink;
  private runSpan: SpanContext | undefined;

  constructor(private readonly services: EngineServices, readonly runId: string, readonly input: string) {
    this.replyBudget = services.config.maxTokens;
    const rep = services.config.repetition;
    this.repetition = rep ? new RepetitionGuard(rep.threshold) : undefined;
  }

  get awaitingApproval(): boolean {
    return this.suspended !== undefined;
  }

  /** Runs the turn inside the run's span scope: every event of the run, however deep, belongs to it. */
  start(sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    this.runSpan = this.services.spans.open("agent", this.services.config.name, this.runId);
    return inScope({ runId: this.runId, span: this.runSpan }, () => this.startInScope(sink, signal));
  }

  private async startInScope(sink: RunSink, signal?: AbortSignal): Promise<RunResult> {
    this.bind(sink, signal);
    await this.started(false);
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

  private started(resumed: boolean): Promise<void> | undefined {
    const attributes = this.services.runAttributes();
    return fire(this.services, HookEvent.AGENT_START, { runId: this.runId, input: this.input, model: this.services.config.model, resumed, ...(attributes ? { attributes } : {}) });
  }

  private bind(sink: RunSink, signal: AbortSignal | undefined): void {
    this.clock.start();
    this.sink = sink;
    this.signal = signal;
  }

  private phaseContext() {
    return { runId: this.runId, signal: this.signal, sink: this.sink };
  }

  private async loop(): Promise<RunResult> {
    for (;;) {
      if (this.signal?.aborted) throw new CancelledError();
      if (!this.finalCall) await this.checkLimits();
      this.iteration++;
      // Hooks answer undefined when no observer is async: awaiting that would still cost a promise
      // (and an async-context hop) per event on the engine's path, so only a promise is awaited.
      const started = fire(this.services, HookEvent.LOOP_ITERATION_START, { iteration: this.iteration });
      if (started) await started;
      const response = await this.callModelWithRecovery();
      const calls = response.content.filter((b): b is ToolCallBlock => b.type === "tool_call");
      const text = textOf(response.content);
      if (text.trim() !== "") this.lastText = text;

      const reply = this.view(response.stopReason, calls, text);
      const recovery = recoveryFor(reply, (reason) => this.made(reason));
      if (!recovery?.dropReply) this.store(response);
      if (recovery) {
        await this.recoverFrom(recovery, reply);
        continue;
      }
      if (calls.length === 0 || this.finalCall) {
        if (this.finalCall && text.trim() === "") return this.noFinalAnswer(calls.length);
        this.textParts.push(text);
        await this.endIteration(0);
        return this.finish("completed");
      }

      const planned = await planCalls(this.services, calls, this.phaseContext());
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
    const progress = { runId: this.runId, modelCalls: this.modelCalls, toolCalls: this.toolCalls, usage: { ...this.usage, cost: { ...this.cost } }, elapsedMs: this.clock.elapsedMs };
    const due = finalCallDue(this.services, this.iteration, progress);
    if (!due) return;
    this.finalCall = due.why;
    await this.recover(due.reason, null, due.detail);
    this.tell(due.nudge);
  }

  private view(stopReason: StopReason, calls: readonly ToolCallBlock[], text: string): ReplyView {
    const open = this.services.todos.current.filter((t) => t.status !== "completed").length;
    return { stopReason, calls, text, finalCall: this.finalCall !== undefined, openTodos: open, replyBudget: this.replyBudget, maxReplyTokens: this.services.config.maxReplyTokens };
  }

  /** Keeps the reply in the history; the final call's reply without the tool calls it was told not to make. */
  private store(response: ProviderResponse): void {
    const content = this.finalCall ? response.content.filter((b) => b.type !== "tool_call") : response.content;
    if (content.length > 0) this.services.memory.push({ role: "assistant", content } satisfies AssistantMessage);
  }

  /** Makes a reply recovery: the run goes on with one more model call. */
  private async recoverFrom(recovery: ReplyRecovery, reply: ReplyView): Promise<void> {
    if (recovery.keepText) this.textParts.push(reply.text);
    if (recovery.replyBudget) this.replyBudget = recovery.replyBudget(reply);
    await this.recover(recovery.reason, recovery.replyBudget ? this.replyBudget : null);
    if (recovery.nudge) this.tell(recovery.nudge(reply));
    await this.endIteration(0);
  }

  /** Tells the model something before its next call, as a user message. */
  private tell(text: string): void {
    this.services.memory.push({ role: "user", content: [{ type: "text", text }] });
  }

  private async afterToolTurn(calls: readonly ToolCallBlock[]): Promise<void> {
    this.toolCalls += calls.length;
    const ended = this.endIteration(calls.length);
    if (ended) await ended;
    const found = this.repetition?.observe(calls);
    if (found && !this.finalCall) {
      await fire(this.services, HookEvent.REPETITION, found);
      this.finalCall = `it repeated the same tool calls ${found.laps} times`;
      this.tell(`You have repeated the same tool calls ${found.laps} times. Stop calling tools and answer with what you have.`);
    }
  }

  /** The tool-free final call got tool calls (or nothing) back: completing with empty text would pass silence off as an answer. */
  private async noFinalAnswer(toolCalls: number): Promise<never> {
    await this.recover("no_final_answer", null);
    await this.endIteration(0);
    if (this.textParts.join("").trim() === "") this.textParts.push(this.lastText);
    const asked = toolCalls > 0 ? `asked for ${toolCalls} more tool call(s)` : "gave an empty reply";
    throw new RunError("no_final_answer", `the model ${asked} instead of answering after it was told to stop calling tools (${this.finalCall}); result.text holds the last text it wrote`);
  }

  private pushResults(blocks: readonly ToolCallBlock[], done: Map<string, ToolResultBlock>): void {
    const content = blocks.map((b) => done.get(b.id)).filter((r): r is ToolResultBlock => r !== undefined);
    this.services.memory.push({ role: "user", content });
  }

  private endIteration(toolCalls: number): Promise<void> | undefined {
    return fire(this.services, HookEvent.LOOP_ITERATION_END, { iteration: this.iteration, toolCalls });
  }

  /** Calls the model; condenses first when over budget, and again on a context-overflow refusal. */
  private async callModelWithRecovery(): Promise<ProviderResponse> {
    const { config, memory } = this.services;
    if (config.condense && memory.estimatedTokens > config.contextBudgetTokens) await condenseHistory(this.services, "budget");
    for (;;) {
      try {
        this.modelCalls++;
        return await callModel(this.services, {
          tools: this.finalCall ? [] : this.services.tools.definitions(),
          maxTokens: this.replyBudget,
          signal: this.signal,
          sink: this.sink,
          onUsage: (u, cost) => {
            addUsage(this.usage, u);
            addCost(this.cost, cost);
          },
        });
      } catch (err) {
        if (err instanceof ProviderError && err.kind === "reply_limit" && err.limit && err.limit < this.replyBudget && this.made("reply_limit") < 2) {
          this.replyBudget = err.limit;
          await this.recover("reply_limit", err.limit);
          continue;
        }
        if (!(err instanceof ProviderError) || err.kind !== "context_overflow" || this.made("context_overflow") + this.made("context_overflow_spill") >= 3) throw err;
        if (await condenseHistory(this.services, "overflow")) {
          await this.recover("context_overflow", null);
        } else if (shrinkHistory(this.services)) {
          await this.recover("context_overflow_spill", null);
        } else {
          throw err;
        }
      }
    }
  }

  /** Recoveries of `reason` made so far in the run. */
  private made(reason: RecoveryReason): number {
    return this.recoveries.get(reason) ?? 0;
  }

  /** Counts one more recovery of `reason` and reports it (RECOVERY). */
  private recover(reason: RecoveryReason, replyBudget: number | null, detail?: string): Promise<void> | undefined {
    const attempt = this.made(reason) + 1;
    this.recoveries.set(reason, attempt);
    return fire(this.services, HookEvent.RECOVERY, { reason, attempt, replyBudget, ...(detail !== undefined ? { detail } : {}) });
  }

  private result(status: RunStatus, error?: HarnessError, pending: PendingApproval[] = []): RunResult {
    return { status, text: this.textParts.join(""), ...(error ? { error } : {}), pending, usage: { ...this.usage, cost: { ...this.cost } }, runId: this.runId, modelCalls: this.modelCalls };
  }

  private async pause(pending: PendingApproval[]): Promise<RunResult> {
    this.clock.pause();
    const result = this.result("awaiting_approval", undefined, pending);
    // Not terminal (no AGENT_END), but observers such as recorders need to know the run now waits.
    await fire(this.services, HookEvent.CHECKPOINT, { sessionId: this.services.info.sessionId, runId: this.runId, status: "awaiting_approval", phase: "approval_wait" });
    this.sink.push({ type: "result", result });
    return result;
  }

  private async finish(status: RunStatus, error?: HarnessError): Promise<RunResult> {
    let result = this.result(status, error);
    if (status === "completed") {
      try {
        await this.services.extensions.turnEnd(result.text);
      } catch (err) {
        return this.fail(err);
      }
    }
    await fire(this.services, HookEvent.AGENT_END, { result });
    await this.services.extensions.turnComplete(result);
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
