import type { CallCost } from "../cost/call-cost.js";
import type { ToolOutcome } from "../hooks/tool-payloads.js";
import type { Tool } from "../tools/tool.js";
import { idempotencyKeyOf } from "../tools/idempotency.js";
import type { ToolCall, ToolResult } from "../types/content.js";
import type { JsonValue } from "../types/json.js";
import type { ProviderResponse } from "../types/provider.js";
import type { SpanContext } from "../spans/span-context.js";
import type { EngineServices, RunSink } from "../engine/services.js";
import type { ApprovalDecision, RunStatus } from "../engine/run-types.js";
import type { DurableToolPhase, PlannedCall } from "../engine/tool-phase.js";
import type { DurableServices } from "./durable-store.js";
import type { JournalEntry, ModelReplyEntry, RunCounters } from "./journal-entry.js";
import { JournalReplay } from "./journal-replay.js";
import { RunJournal, safeToRepeat } from "./run-journal.js";

/**
 * A durable run's side of the loop: it commits each phase boundary (through `RunJournal`) and,
 * in a run resumed from its journal, hands back what was committed before the process died.
 */
export class DurableRun {
  private readonly journal: RunJournal;
  private replay: JournalReplay | undefined;
  /** The run's start, committed with its first snapshot. */
  private pendingStart: JournalEntry | undefined;
  /** A resumed run's first step continues from the restored snapshot: committing another would hide what came after it. */
  private skipSnapshot = false;
  private sink!: RunSink;

  constructor(
    private readonly services: EngineServices,
    private readonly durable: DurableServices,
    readonly runId: string,
  ) {
    this.journal = new RunJournal(services, durable, runId);
  }

  bind(sink: RunSink): void {
    this.sink = sink;
  }

  /** A new run: its start goes into the journal with its first snapshot. */
  begin(input: string, span: SpanContext): void {
    this.pendingStart = {
      phase: "run_start",
      runId: this.runId,
      sessionId: this.services.info.sessionId,
      input,
      traceId: span.traceId,
      spanId: span.spanId,
      ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
    };
  }

  /** A resumed run: what it takes from the journal, and the conversation length its next snapshot builds on. */
  restored(after: readonly JournalEntry[], conversationLength: number): JournalReplay {
    this.replay = new JournalReplay(after);
    this.skipSnapshot = true;
    this.journal.continueFrom(conversationLength);
    return this.replay;
  }

  /** The top of a step. */
  async stepStart(counters: RunCounters): Promise<void> {
    if (this.skipSnapshot) {
      this.skipSnapshot = false;
      return;
    }
    const start = this.pendingStart;
    this.pendingStart = undefined;
    await this.journal.snapshot(counters, this.sink, start ? [start] : []);
  }

  /** The committed reply of this step, when the run was resumed in it. */
  takeReply(iteration: number): ModelReplyEntry | undefined {
    return this.replay?.takeReply(iteration);
  }

  /** Commits the provider's reply before response middleware. */
  reply(iteration: number, response: ProviderResponse, cost: CallCost): Promise<void> {
    return this.journal.commit([{ phase: "model_reply", iteration, response, cost }], "running", false, this.sink);
  }

  /**
   * Marks each call that started before the process died and may not run twice: refused as
   * `interrupted`, or waiting for a human's approval when `interrupted` is `ask`.
   */
  holdInterrupted(planned: PlannedCall[], iteration: number): PlannedCall[] {
    const replay = this.replay;
    if (!replay) return planned;
    const ask = this.durable.options.interrupted === "ask";
    return planned.map((p) => {
      if (p.refusal || !p.tool || safeToRepeat(p.tool) || !replay.interrupted(iteration, p.call.id)) return p;
      const key = idempotencyKeyOf(this.runId, p.call.id);
      const reason = `"${p.call.name}" was running when the process stopped, and it is not safe to run twice: it may or may not have taken effect (idempotency key ${key})`;
      if (ask)
        return {
          ...p,
          needsApproval: true,
          permission: { decision: "ask", source: "durable", reason: `${reason}; approve to run it again` },
        };
      return {
        ...p,
        refusal: {
          outcome: "interrupted",
          message: `Error: ${reason}. It was not run again: check its effect before calling it again.`,
        },
      };
    });
  }

  /** The decisions committed for this step's waiting calls before the process died. */
  decisions(iteration: number): Record<string, ApprovalDecision> | undefined {
    return this.replay?.decisions(iteration);
  }

  waiting(iteration: number, pending: string[]): Promise<void> {
    return this.journal.commit([{ phase: "approval_wait", iteration, pending }], "awaiting_approval", true, this.sink);
  }

  decided(iteration: number, decisions: Record<string, ApprovalDecision>): Promise<void> {
    return this.journal.commit([{ phase: "approval", iteration, decisions }], "running", true, this.sink);
  }

  end(status: Exclude<RunStatus, "awaiting_approval">): Promise<void> {
    return this.journal.commit([{ phase: "run_end", status }], status, true, this.sink);
  }

  /** The tool phase's commits and reuse for step `iteration`. */
  toolPhase(iteration: number): DurableToolPhase {
    return {
      takeOutcome: (callId) => this.replay?.takeOutcome(iteration, callId),
      started: (call: ToolCall, tool: Tool) =>
        this.journal.commit(
          [
            {
              phase: "tool_started",
              iteration,
              callId: call.id,
              name: call.name,
              input: call.input as JsonValue,
              idempotencyKey: idempotencyKeyOf(this.runId, call.id),
            },
          ],
          "running",
          !safeToRepeat(tool),
          this.sink,
        ),
      finished: (call: ToolCall, tool: Tool, outcome: ToolOutcome, result: ToolResult) =>
        this.journal.commit(
          [{ phase: "tool_outcome", iteration, callId: call.id, outcome, result }],
          "running",
          !safeToRepeat(tool),
          this.sink,
        ),
    };
  }
}
