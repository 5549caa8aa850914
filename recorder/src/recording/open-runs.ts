import type { RunResult } from "@harnessx/core";
import type { AnyHookContext, Redactor } from "@harnessx/core/extension";
import { runDirOf } from "../format/layout.js";
import type { EventQueue } from "./event-queue.js";
import type { QueuedEvent } from "./message-log.js";
import type { ResolvedRecorderOptions } from "./options.js";
import { earlierPartOf, ReopeningRuns } from "./reopen-run.js";
import { RunRecording, type EarlierPart, type PendingArtifact } from "./run-recording.js";
import { RunWriter } from "./run-writer.js";

type AgentStart = AnyHookContext & { event: "agent_start" };

/** What encoding left for the writer: runs that ended, `run.json` status changes, artifacts to store or pin. */
export interface PendingWrites {
  ended: Array<[RunRecording, RunResult, number]>;
  /** Runs that paused for approval (a CHECKPOINT) or resumed: `run.json` follows, off the agent's path. */
  statuses: Array<[RunRecording, "awaiting_approval" | "running"]>;
  artifacts: PendingArtifact[];
}

/**
 * The runs being recorded: each event goes to its run's recording, opened at the run's start (a
 * run resumed after an approval wait continues its recording). A durable run rebuilt from its
 * journal is handed to `restored`, and its events wait in `reopening` until `resume` opens it.
 */
export class OpenRuns {
  readonly byId = new Map<string, RunRecording>();
  readonly reopening = new ReopeningRuns();
  /** The run most recently started. */
  lastRunId: string | undefined;
  private pending: PendingWrites = { ended: [], statuses: [], artifacts: [] };

  constructor(
    private readonly options: ResolvedRecorderOptions,
    private readonly redactor: Redactor,
    private readonly queue: EventQueue,
    private readonly restored: (start: AgentStart) => void,
  ) {}

  /** Encodes one event into its run's buffered lines (no disk I/O, except reading a resumed run's run.json). */
  encode(event: QueuedEvent): void {
    const runId = event.event === "agent_start" ? event.data.runId : event.runId!;
    if (this.reopening.takes(event, runId)) return;
    let run = this.byId.get(runId);
    if (event.event === "agent_start" && !run) {
      if (event.data.restored) {
        this.restored(event);
        return;
      }
      run = this.openRun(
        event,
        event.data.resumed ? earlierPartOf(RunWriter.readManifest(runDirOf(this.options.dir, runId))) : undefined,
      );
    }
    if (run) this.recordIn(run, event); // else the recorder was installed after this run started
  }

  /** A restored run's recording is ready (`earlier`, or none: a new one): its start and the events held meanwhile go in. */
  resume(start: AgentStart, earlier: EarlierPart | undefined, held: readonly QueuedEvent[]): void {
    this.recordIn(this.openRun(start, earlier), start);
    for (const event of held) this.encode(event);
  }

  /** Joins each run's lines, after noting the events the queue dropped. */
  compact(): void {
    for (const run of this.byId.values()) {
      this.recordGap(run);
      run.compact();
    }
    for (const [run] of this.pending.ended) run.compact();
  }

  /** Takes what the writer has to do. */
  take(): PendingWrites {
    const taken = this.pending;
    this.pending = { ended: [], statuses: [], artifacts: [] };
    return taken;
  }

  /** Characters of encoded lines waiting to be written. */
  bufferedChars(): number {
    return [...this.byId.values()].reduce((total, run) => total + run.bufferedChars, 0);
  }

  private recordIn(run: RunRecording, event: QueuedEvent): void {
    this.recordGap(run);
    run.record(event, this.pending.artifacts);
    if (event.event === "agent_end") {
      this.byId.delete(run.manifest.runId);
      this.pending.ended.push([run, event.data.result, event.timestamp]);
    } else if (
      event.event === "checkpoint" &&
      event.data.status === "awaiting_approval" &&
      event.data.extension === undefined
    ) {
      // Only the engine pauses a run: an extension's checkpoint (it carries its name) is recorded, not obeyed.
      this.pending.statuses.push([run, "awaiting_approval"]);
    } else if (event.event === "agent_start" && event.data.resumed) {
      this.pending.statuses.push([run, "running"]);
    }
  }

  private openRun(start: AgentStart, earlier: EarlierPart | undefined): RunRecording {
    const runDir = runDirOf(this.options.dir, start.data.runId);
    const writer = new RunWriter(runDir, {
      maxBytes: this.options.segmentMaxBytes,
      maxAgeMs: this.options.segmentMaxAgeMs,
    });
    const run = new RunRecording(writer, start, earlier, this.options, this.redactor);
    this.byId.set(start.data.runId, run);
    this.lastRunId = start.data.runId;
    return run;
  }

  private recordGap(run: RunRecording): void {
    const gap = this.queue.takeGap(run.manifest.runId);
    if (gap) run.recordOwn("recorder.dropped", gap.toTs, { ...gap }, this.pending.artifacts);
  }
}
