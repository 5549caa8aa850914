import { promises as fs } from "node:fs";
import { HarnessError } from "@harnessx/core";
import type { AnyHookContext } from "@harnessx/core/extension";
import type { RunManifest } from "../format/event.js";
import { runManifestPathOf } from "../format/layout.js";
import { readRun } from "../store/read-run.js";
import { readRunManifest } from "../store/run-manifest.js";
import { summarize } from "../format/run-summary.js";
import { liveLockHolder, recover, rollupOf, RunStillActiveError } from "../store/recover.js";
import type { QueuedEvent } from "./message-log.js";
import type { EarlierPart } from "./run-recording.js";

/** A run resumed after an approval wait in this process: its run.json as its pause left it. */
export function earlierPartOf(manifest: RunManifest | undefined): EarlierPart | undefined {
  return manifest && { manifest, lastSeq: manifest.summary?.events ?? 0, rollup: manifest.rollup };
}

/**
 * A durable run was resumed, but its recording is still held by another live process: the
 * recorder leaves that recording alone and does not record the resumed part here.
 */
export class RunRecordedElsewhereError extends HarnessError {
  constructor(
    /** The resumed run's id. */
    readonly runId: string,
    /** The run's directory in the store, left as it was. */
    readonly runDir: string,
    /** Id of the live process holding the run's lock. */
    readonly pid: number,
  ) {
    super(
      "run_recorded_elsewhere",
      `run ${runId} was resumed here, but live process ${pid} still records it in ${runDir}: that recording is left as it is and the resumed part is not recorded`,
    );
  }
}

/**
 * Makes the recording of a durable run resumed from its journal ready to go on: undefined when
 * the store has none (the run is recorded as new). A run left `running` by a dead process is
 * sealed by `recover` first (marked crashed, `recorder.recovered` appended; its retention waits
 * for the run's end). Its totals, rollup and last `seq` then come from every event it holds.
 * `beforeRecover` runs once the lock is known to be no other live process's (this process's other
 * recorders then let the run go).
 */
export async function reopenRecording(
  runDir: string,
  runId: string,
  beforeRecover: () => void,
): Promise<EarlierPart | undefined> {
  const live = await liveLockHolder(runDir);
  if (live !== undefined) throw new RunRecordedElsewhereError(runId, runDir, live);
  beforeRecover();
  const present = await fs.access(runManifestPathOf(runDir)).then(
    () => true,
    () => false,
  );
  if (!present) return undefined;
  try {
    await recover(runDir, { applyRetention: false });
  } catch (error) {
    if (error instanceof RunStillActiveError) throw new RunRecordedElsewhereError(runId, runDir, error.pid);
    throw error;
  }
  const manifest = await readRunManifest(runDir);
  if (manifest.detail === "summary") {
    // Retention kept only its summary: the run goes on from its counts; its earlier events are gone.
    const { detail: _detail, reducedBy: _reducedBy, ...kept } = manifest;
    return { manifest: kept, lastSeq: manifest.summary?.events ?? 0, rollup: manifest.rollup };
  }
  const { events } = await readRun(runDir);
  const lastSeq = events.reduce((last, event) => Math.max(last, event.seq), 0);
  // A run.json left by a clean pause has the exact rollup; after a recovery it is rebuilt from the lines.
  return {
    manifest: { ...manifest, summary: summarize(events) },
    lastSeq,
    rollup: manifest.rollup ?? rollupOf(events),
  };
}

/** How reopening a restored run's recording turned out. */
export type Reopened = { earlier: EarlierPart | undefined; held: QueuedEvent[] } | { error: unknown };

/**
 * Restored runs whose recordings are being reopened: their events wait here, in order, until the
 * recording is ready (reopening reads the disk, which the recorder never does on the agent's path);
 * a run whose recording could not be reopened has its events dropped.
 */
export class ReopeningRuns {
  private readonly held = new Map<string, QueuedEvent[]>();
  private readonly refused = new Set<string>();
  private readonly pending = new Set<Promise<unknown>>();

  /** True when the event was taken: held while its run reopens, or dropped for a run refused here. */
  takes(event: QueuedEvent, runId: string): boolean {
    const held = this.held.get(runId);
    if (held) {
      held.push(event);
      return true;
    }
    if (!this.refused.has(runId)) return false;
    if (event.event === "agent_end") this.refused.delete(runId);
    return true;
  }

  /** Starts reopening (off the agent's path; see `reopenRecording` for `beforeRecover`). Resolves with the events held meanwhile. */
  reopen(
    start: AnyHookContext & { event: "agent_start" },
    runDir: string,
    beforeRecover: () => void,
  ): Promise<Reopened> {
    const runId = start.data.runId;
    const held: QueuedEvent[] = [];
    this.held.set(runId, held);
    const work = (async (): Promise<Reopened> => {
      await new Promise((resolve) => setImmediate(resolve));
      try {
        const earlier = await reopenRecording(runDir, runId, beforeRecover);
        return { earlier, held };
      } catch (error) {
        if (!held.some((event) => event.event === "agent_end")) this.refused.add(runId);
        return { error };
      } finally {
        this.held.delete(runId);
      }
    })();
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
    return work;
  }

  /** Resolves once every reopening started so far is done. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
