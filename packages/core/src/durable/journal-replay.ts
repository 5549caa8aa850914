import type { ApprovalDecision } from "../engine/run-types.js";
import type { JournalEntry, ModelReplyEntry, ToolOutcomeEntry, ToolStartedEntry } from "./journal-entry.js";

/**
 * What a resumed run takes from its journal instead of doing again: the model reply of the step
 * it stopped in, the raw outcomes of the calls that finished, which calls had started, and the
 * approval decisions already given. Each is taken once, and only by the step it was committed in
 * (a model may give a later step's calls the same ids); `report` says what was reused.
 */
export class JournalReplay {
  private readonly reply: ModelReplyEntry | undefined;
  private readonly outcomes = new Map<string, ToolOutcomeEntry>();
  private readonly started = new Map<string, ToolStartedEntry>();
  private readonly decided = new Map<number, Record<string, ApprovalDecision>>();
  private readonly taken = new Set<string>();
  private replyTaken = false;

  constructor(after: readonly JournalEntry[]) {
    let reply: ModelReplyEntry | undefined;
    for (const entry of after) {
      if (entry.phase === "model_reply") reply = entry;
      else if (entry.phase === "tool_outcome") this.outcomes.set(entry.callId, entry);
      else if (entry.phase === "tool_started") this.started.set(entry.callId, entry);
      else if (entry.phase === "approval")
        this.decided.set(entry.iteration, { ...this.decided.get(entry.iteration), ...entry.decisions });
    }
    this.reply = reply;
  }

  /** The committed reply of step `iteration`, once. */
  takeReply(iteration: number): ModelReplyEntry | undefined {
    if (this.replyTaken || this.reply?.iteration !== iteration) return undefined;
    this.replyTaken = true;
    return this.reply;
  }

  /** The committed raw outcome of step `iteration`'s call, once. */
  takeOutcome(iteration: number, callId: string): ToolOutcomeEntry | undefined {
    const outcome = this.outcomes.get(callId);
    if (outcome?.iteration !== iteration || this.taken.has(callId)) return undefined;
    this.taken.add(callId);
    return outcome;
  }

  /** True when step `iteration`'s call started before the process died and its outcome was never committed. */
  interrupted(iteration: number, callId: string): boolean {
    return this.started.get(callId)?.iteration === iteration && !this.outcomes.has(callId);
  }

  /**
   * The decisions given to step `iteration`'s waiting calls before the process died. A call that
   * was approved and then interrupted needs a new decision: its approval is left out.
   */
  decisions(iteration: number): Record<string, ApprovalDecision> | undefined {
    const decided = this.decided.get(iteration);
    if (!decided) return undefined;
    return Object.fromEntries(Object.entries(decided).filter(([id]) => !this.interrupted(iteration, id)));
  }

  /** What the resumed run reused, for its `RECOVERY resumed` detail. */
  report(from: string): string {
    const parts = [`resumed from its ${from}`];
    if (this.reply) parts.push(`the model reply of step ${this.reply.iteration} taken from the journal`);
    if (this.outcomes.size > 0) parts.push(`${this.outcomes.size} tool result(s) taken from the journal`);
    const interrupted = [...this.started.keys()].filter((id) => !this.outcomes.has(id)).length;
    if (interrupted > 0) parts.push(`${interrupted} call(s) interrupted`);
    return parts.join("; ");
  }
}
