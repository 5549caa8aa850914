import { HarnessError, noteStoreDir, type RunResult } from "@harnessx/core";
import { Extension, type AnyHookContext, type ExtensionContext, packageVersion } from "@harnessx/core/extension";
import { ArtifactStore } from "@harnessx/artifacts";
import { runDirOf } from "../format/layout.js";
import type { ExportIncidentRequest, IncidentExport } from "../bundle/export-incident.js";
import { resolveOptions, type FlightRecorderOptions, type ResolvedRecorderOptions } from "./options.js";
import type { RunRecording } from "./run-recording.js";
import { RunRecordedElsewhereError } from "./reopen-run.js";
import { OpenRuns } from "./open-runs.js";
import type { RunWriter } from "./run-writer.js";
import { EventQueue } from "./event-queue.js";
import { retainAfterRun } from "./retention.js";
import { noteRunEnded, runningCompaction } from "../parts/background-parts.js";
import { RecorderWriteError } from "./recorder-write-error.js";
import { ArtifactPins } from "./artifact-pins.js";
import { IncidentExports } from "./incident-exports.js";
import { LiveRecorders } from "./live-recorders.js";
import { startRecorderSync, stopRecorderSync } from "../dataset/s3/background-sync.js";

/** The queue drains as soon as this many events wait, besides the flush timer. */
const DRAIN_BATCH = 2048;
/** Encoded lines held while the event loop is starved; beyond this, events wait (and may drop). */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

const liveRecorders = new LiveRecorders<FlightRecorderExtension>();

/**
 * Records every hook event of the agent's runs into the store (see recorder/README.md): the observer only enqueues; a background writer batches lines into
 * segments, seals them with zstd, keeps big payloads as artifacts and writes `run.json`. A full queue drops events (recorded later as `recorder.dropped`); a failing
 * disk is reported once as an ERROR event (source "recorder") and recording stops while the run goes on. `sync` uploads ended runs to S3 in the background.
 */
export class FlightRecorderExtension extends Extension {
  readonly name = "flight-recorder";
  override readonly version = packageVersion(import.meta.url);
  /** The options in effect, defaults filled in. */
  readonly options: ResolvedRecorderOptions;
  /** The artifact store under `options.dir` holding large payloads; runs pin what they reference. */
  readonly artifacts: ArtifactStore;
  private readonly queue: EventQueue;
  /** The runs being recorded, from install on (it needs the agent's redaction policy). */
  private openRuns!: OpenRuns;
  private readonly background = new Set<Promise<unknown>>();
  /** Writers of ended runs still being written whole (`closeAllNow` finishes them synchronously). */
  private readonly finishing = new Set<RunWriter>();
  private readonly pins: ArtifactPins;
  private readonly incidents: IncidentExports;
  private ctx: ExtensionContext | undefined;
  private timer: NodeJS.Timeout | undefined;
  private drainScheduled = false;
  private lastDrainAt = performance.now();
  private failure: RecorderWriteError | undefined;

  constructor(options: FlightRecorderOptions = {}) {
    super();
    this.options = resolveOptions(options);
    this.artifacts = new ArtifactStore(this.options.dir);
    this.pins = new ArtifactPins(this.artifacts);
    this.incidents = new IncidentExports(this.options.dir);
    this.queue = new EventQueue(this.options.queueCapacity);
  }

  override install(ctx: ExtensionContext): void {
    this.ctx = ctx;
    this.openRuns = new OpenRuns(this.options, ctx.redactor, this.queue, (start) => this.reopen(start));
    noteStoreDir(ctx, this.name, this.options.dir);
    ctx.onAnyHook((event) => this.observe(event));
    this.timer = setInterval(() => this.drain(), this.options.flushIntervalMs);
    this.timer.unref();
    startRecorderSync(this, this.options.dir, this.options.sync, ctx);
    liveRecorders.join(this);
  }

  /** The error that stopped recording, if any. */
  get failed(): RecorderWriteError | undefined {
    return this.failure;
  }

  /** The run most recently started under this recorder. */
  get lastRun(): string | undefined {
    return this.openRuns?.lastRunId;
  }

  /** Bundles written so far (by `exportIncident` or `autoExport`), oldest first. */
  get bundles(): readonly IncidentExport[] {
    return this.incidents.written;
  }

  /** Writes everything queued and waits for seals, artifacts and automatic exports in progress. */
  async flush(): Promise<void> {
    this.drain();
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  /** Writes an incident bundle of a run (default: the last run) after flushing it, redacted with the agent's policy (see `exportIncident`). */
  async exportIncident(
    request: Omit<ExportIncidentRequest, "dir" | "runId" | "reason"> & { runId?: string; reason?: string } = {},
  ): Promise<IncidentExport> {
    await this.flush();
    const runId = request.runId ?? this.lastRun;
    if (!runId) throw new HarnessError("no_run", "exportIncident: this recorder has recorded no run yet; pass a runId");
    return this.incidents.export({ ...request, runId }, this.ctx?.redactor);
  }

  /**
   * At the end of a turn, make sure artifacts the run references are pinned before anything
   * else (a spill extension's cleanup at close) can delete them: drains the queue and waits
   * for the pins and artifact writes in progress. Recording of later events is unaffected.
   */
  override async onTurnEnd(): Promise<void> {
    this.drain();
    await this.pins.settled();
  }

  override async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    liveRecorders.leave(this);
    this.drain();
    await this.openRuns?.reopening.settled();
    for (const run of [...(this.openRuns?.byId.values() ?? [])]) this.closeRun(run, "incomplete", Date.now());
    await this.flush();
    await stopRecorderSync(this); // its last pass, now that every run is written
    await runningCompaction(this.options.dir);
    this.openRuns?.byId.clear();
  }

  // The agent's path: no I/O, no awaiting, no serialization.
  private observe(event: AnyHookContext): void {
    if (this.failure) return;
    const runId = event.event === "agent_start" ? event.data.runId : event.runId;
    if (runId === undefined || !this.queue.offer(event, runId)) return;
    if (this.queue.length >= DRAIN_BATCH) {
      if (!this.drainScheduled) {
        this.drainScheduled = true;
        setImmediate(() => this.drain());
      }
      // A run that never yields to the event loop (a zero-latency model) starves the writer: the
      // queue is then encoded into lines here (CPU only, no I/O) so events do not pile up as
      // objects; the timer writes them as soon as the loop turns.
      if (this.queue.length % DRAIN_BATCH === 0 && performance.now() - this.lastDrainAt > this.options.flushIntervalMs)
        this.encodeQueued();
    }
  }

  /** Turns queued events into buffered lines (spans, redaction, serialization); no disk I/O. */
  private encodeQueued(): void {
    // Before install there is nothing to encode.
    if (this.failure || !this.openRuns || this.openRuns.bufferedChars() > MAX_BUFFERED_BYTES) return;
    const batch = this.queue.take();
    try {
      for (const event of batch) this.openRuns.encode(event);
      this.openRuns.compact();
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * A durable run rebuilt from its journal (its process died): its events wait while its recording
   * is reopened off the agent's path, then go on in it (or in a new one when the store has none). A
   * recording another live process holds is left alone: reported, and the resumed part not recorded.
   */
  private reopen(start: AnyHookContext & { event: "agent_start" }): void {
    const runId = start.data.runId;
    const letGo = () => {
      for (const other of liveRecorders.others(this)) other.letGo(runId);
    };
    const reopened = this.openRuns.reopening.reopen(start, runDirOf(this.options.dir, runId), letGo).then((outcome) => {
      if (this.failure) return;
      if ("error" in outcome) {
        if (!(outcome.error instanceof RunRecordedElsewhereError)) return this.fail(outcome.error);
        return void this.ctx?.reportError(outcome.error, { source: "recorder" })?.catch(() => undefined);
      }
      this.openRuns.resume(start, outcome.earlier, outcome.held);
      this.drain();
    });
    this.track(reopened);
  }

  /** Another recorder of this process goes on with this run (resumed there): stop writing it, as a crash would. */
  private letGo(runId: string): void {
    this.encodeQueued(); // the run's queued events first: they may be all there is of it yet
    const run = this.openRuns?.byId.get(runId);
    if (this.failure || !run) return;
    this.openRuns.byId.delete(runId);
    try {
      run.flush(Date.now());
      run.writer.closeNow();
    } catch (error) {
      this.fail(error);
    }
  }

  /** The background writer: encodes what is queued, writes it, seals, stores artifacts, closes ended runs. */
  private drain(): void {
    this.drainScheduled = false;
    this.lastDrainAt = performance.now();
    this.encodeQueued();
    if (this.failure || !this.openRuns) return;
    const { ended, statuses, artifacts } = this.openRuns.take();
    try {
      const now = Date.now();
      for (const run of this.openRuns.byId.values()) run.flush(now);
      // A run that ends before any of it was written is written whole when it closes.
      for (const [run] of ended) if (run.onDisk) run.flush(now);
      for (const [run, status] of statuses) run.markStatus(status);
      this.pins.store(artifacts, (work) => this.track(work));
      for (const [run, result, ts] of ended) this.closeRun(run, result.status, ts, result);
    } catch (error) {
      this.fail(error);
    }
  }

  private closeRun(
    run: RunRecording,
    status: RunResult["status"] | "incomplete",
    endedAt: number,
    result?: RunResult,
  ): void {
    const runId = run.manifest.runId;
    this.openRuns.byId.delete(runId);
    if (this.failure) return;
    const error = result?.error
      ? { name: result.error.name, message: result.error.message, code: result.error.code }
      : undefined;
    let written: Promise<void>;
    if (!run.onDisk && !run.resumed) {
      // Short runs (most of them) end before the first write: no lock, no plain file, no re-reading.
      written = run.endAtOnce(status, endedAt, error);
      this.finishing.add(run.writer);
    } else {
      try {
        run.flush(Date.now());
        run.end(status, endedAt, error);
      } catch (error) {
        this.fail(error);
        return;
      }
      written = run.writer.close(true);
    }
    const pins = [...run.referenced];
    const earlier = [...this.background]; // this run's artifact puts among them
    this.track(
      (async () => {
        await written.finally(() => this.finishing.delete(run.writer));
        await Promise.allSettled(earlier);
        for (const sha256 of pins) await this.artifacts.pin(sha256, `run:${runId}`).catch(() => undefined);
        if (status === "failed" && this.options.autoExport === "on_failure")
          await this.incidents.exportFailed(runId, this.ctx);
        await retainAfterRun(run.manifest, this.options, this.artifacts);
        noteRunEnded(this.options.dir, this.options.compact);
      })(),
    );
  }

  private track(work: Promise<unknown>): void {
    const tracked: Promise<unknown> = work
      .catch((error: unknown) => this.fail(error))
      .finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }

  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure = new RecorderWriteError(this.options.dir, error);
    const lost = this.queue.take().length;
    if (this.timer) clearInterval(this.timer);
    const reported = this.ctx?.reportError(this.failure, { source: "recorder", dropped: lost });
    reported?.catch(() => undefined);
  }

  /** At process exit: write what is queued and mark open runs incomplete, synchronously. */
  closeAllNow(): void {
    try {
      this.drain();
      for (const writer of this.finishing) writer.closeNow();
      for (const run of this.openRuns.byId.values()) {
        run.flush(Date.now());
        run.writer.closeNow();
        run.end("incomplete", Date.now());
        run.writer.releaseLockNow();
      }
    } catch {
      // the process is exiting; nothing left to report to
    }
  }
}
