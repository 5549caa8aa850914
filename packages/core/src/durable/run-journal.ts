import { HookEvent } from "../hooks/events.js";
import type { Tool } from "../tools/tool.js";
import type { DurableServices } from "./durable-store.js";
import type { DurablePhase, JournalEntry, RunCounters } from "./journal-entry.js";
import type { EngineServices, RunSink } from "../engine/services.js";

/** A tool whose calls may run again after a crash: only `safe` ones. */
export function safeToRepeat(tool: Tool | undefined): boolean {
  return tool?.replayPolicy === "safe";
}

/**
 * One run's commits: each phase boundary becomes a redacted journal line, committed with the
 * configured durability before the run goes on, then announced as `CHECKPOINT` (hook and stream).
 */
export class RunJournal {
  /** The conversation's length at the last snapshot: 0 before the first, which so keeps nothing. */
  private snapshotLength = 0;
  private snapshotRewrites = 0;

  constructor(
    private readonly services: EngineServices,
    private readonly durable: DurableServices,
    readonly runId: string,
  ) {}

  /** Continues a journal from a restored snapshot: the next snapshot is a delta on it. */
  continueFrom(length: number): void {
    this.snapshotLength = length;
    this.snapshotRewrites = this.services.memory.rewrites;
  }

  /** The engine's state at the top of a step (after the run's start on the first). */
  snapshot(counters: RunCounters, sink: RunSink, before: JournalEntry[]): Promise<void> {
    const { memory, todos, extensions } = this.services;
    // An unchanged rewrite count means the entries up to the last snapshot are as they were: only appends since.
    const keep = memory.rewrites === this.snapshotRewrites ? this.snapshotLength : 0;
    // `commit` serializes the entry before it returns: the live task list needs no copy.
    const entry: JournalEntry = {
      phase: "snapshot",
      keep,
      entries: memory.entries.slice(keep),
      todos: todos.current,
      extensions: extensions.saveStates(),
      counters,
    };
    this.snapshotLength = memory.length;
    this.snapshotRewrites = memory.rewrites;
    return this.commit([...before, entry], "running", false, sink);
  }

  /** Commits entries; `guard` forces a synced commit whatever the durability (a call that must not run twice). */
  commit(entries: JournalEntry[], status: string, guard: boolean, sink: RunSink): Promise<void> {
    const at = Date.now();
    const text = entries.map((entry) => this.line({ v: 1, at, ...entry })).join("");
    return this.durable.options.store
      .append(this.runId, text, guard || this.fsync())
      .then(() => this.announce(entries[entries.length - 1]!.phase, status, sink));
  }

  private fsync(): boolean {
    return (this.durable.options.durability ?? "fsync") === "fsync";
  }

  private line(value: object): string {
    const { redactor } = this.durable;
    return `${redactor.jsonIfClean(value) ?? redactor.redactToJson(value, "journal", [])}\n`;
  }

  private async announce(phase: DurablePhase, status: string, sink: RunSink): Promise<void> {
    sink.push({ type: "checkpoint", phase });
    await this.services.hooks.emit(HookEvent.CHECKPOINT, {
      sessionId: this.services.info.sessionId,
      runId: this.runId,
      status,
      phase,
    });
  }
}
