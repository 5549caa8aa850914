import { Extension, HarnessError, noteStoreDir, type AnyHookContext, type ExtensionContext, type Redactor, type RunResult, packageVersion } from "@harnessx/core";
import { ArtifactStore } from "@harnessx/artifacts";
import { runDirOf } from "../format/layout.js";
import { exportIncident, type IncidentExport } from "../bundle/export-incident.js";
import { resolveOptions, type FlightRecorderOptions, type ResolvedRecorderOptions } from "./options.js";
import { RunRecording, type PendingArtifact } from "./run-recording.js";
import { RunWriter } from "./run-writer.js";
import { EventQueue } from "./event-queue.js";
import { retainAfterRun } from "./retention.js";
import { RecorderWriteError } from "./recorder-write-error.js";
import { startRecorderSync, stopRecorderSync } from "../dataset/s3/background-sync.js";

/** The queue drains as soon as this many events wait, besides the flush timer. */
const DRAIN_BATCH = 2048;
/** Encoded lines held while the event loop is starved; beyond this, events wait (and may drop). */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/** One process "exit" listener for every installed recorder (many agents must not pile up listeners). */
const liveRecorders = new Set<FlightRecorderExtension>();
function closeLiveRecorders(): void {
  for (const recorder of liveRecorders) recorder.closeAllNow();
}

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
  /** The agent's redaction policy, known from install on. */
  private sanitizer!: Redactor;
  private readonly queue: EventQueue;
  private readonly runs = new Map<string, RunRecording>();
  private readonly background = new Set<Promise<unknown>>();
  /** Writers of ended runs still being written whole (`closeAllNow` finishes them synchronously). */
  private readonly finishing = new Set<RunWriter>();
  private readonly pinning = new Set<Promise<unknown>>();
  private readonly exported: IncidentExport[] = [];
  private ctx: ExtensionContext | undefined;
  private timer: NodeJS.Timeout | undefined;
  private drainScheduled = false;
  private lastDrainAt = performance.now();
  /** Encoded but not yet written: runs that ended and artifacts to store/pin. */
  private pendingEnds: Array<[RunRecording, RunResult, number]> = [];
  /** Runs that paused for approval (a CHECKPOINT) or resumed: `run.json` follows, off the agent's path. */
  private pendingStatuses: Array<[RunRecording, "awaiting_approval" | "running"]> = [];
  private pendingArtifacts: PendingArtifact[] = [];
  private failure: RecorderWriteError | undefined;
  private lastRunId: string | undefined;

  constructor(options: FlightRecorderOptions = {}) {
    super();
    this.options = resolveOptions(options);
    this.artifacts = new ArtifactStore(this.options.dir);
    this.queue = new EventQueue(this.options.queueCapacity);
  }

  override install(ctx: ExtensionContext): void {
    this.ctx = ctx;
    this.sanitizer = ctx.redactor;
    noteStoreDir(ctx, this.name, this.options.dir);
    ctx.onAnyHook((event) => this.observe(event));
    this.timer = setInterval(() => this.drain(), this.options.flushIntervalMs);
    this.timer.unref();
    startRecorderSync(this, this.options.dir, this.options.sync, ctx);
    liveRecorders.add(this);
    if (liveRecorders.size === 1) process.on("exit", closeLiveRecorders);
  }

  /** The error that stopped recording, if any. */
  get failed(): RecorderWriteError | undefined {
    return this.failure;
  }

  /** The run most recently started under this recorder. */
  get lastRun(): string | undefined {
    return this.lastRunId;
  }

  /** Bundles written so far (by `exportIncident` or `autoExport`), oldest first. */
  get bundles(): readonly IncidentExport[] {
    return this.exported;
  }

  /** Writes everything queued and waits for seals, artifacts and automatic exports in progress. */
  async flush(): Promise<void> {
    this.drain();
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  /** Writes an incident bundle of a run (default: the last run) after flushing it. */
  async exportIncident(request: { runId?: string; reason?: string; out?: string; includeRawSpills?: boolean } = {}): Promise<IncidentExport> {
    await this.flush();
    const runId = request.runId ?? this.lastRunId;
    if (!runId) throw new HarnessError("no_run", "exportIncident: this recorder has recorded no run yet; pass a runId");
    const result = await exportIncident({ dir: this.options.dir, runId, reason: request.reason ?? "manual", out: request.out, includeRawSpills: request.includeRawSpills });
    this.exported.push(result);
    return result;
  }

  /**
   * At the end of a turn, make sure artifacts the run references are pinned before anything
   * else (a spill extension's cleanup at close) can delete them: drains the queue and waits
   * for the pins and artifact writes in progress. Recording of later events is unaffected.
   */
  override async onTurnComplete(): Promise<void> {
    this.drain();
    await Promise.allSettled([...this.pinning]);
  }

  override async teardown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    liveRecorders.delete(this);
    if (liveRecorders.size === 0) process.off("exit", closeLiveRecorders);
    this.drain();
    for (const run of [...this.runs.values()]) this.closeRun(run, "incomplete", Date.now());
    await this.flush();
    await stopRecorderSync(this); // its last pass, now that every run is written
    this.runs.clear();
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
      if (this.queue.length % DRAIN_BATCH === 0 && performance.now() - this.lastDrainAt > this.options.flushIntervalMs) this.encodeQueued();
    }
  }

  /** Turns queued events into buffered lines (spans, redaction, serialization); no disk I/O. */
  private encodeQueued(): void {
    if (this.failure || this.bufferedBytes() > MAX_BUFFERED_BYTES) return;
    const batch = this.queue.take();
    try {
      for (const event of batch) {
        const runId = event.event === "agent_start" ? event.data.runId : event.runId!;
        let run = this.runs.get(runId);
        if (event.event === "agent_start" && !run) run = this.openRun(event);
        if (!run) continue; // the recorder was installed after this run started
        this.recordGap(run, this.pendingArtifacts);
        run.record(event, this.pendingArtifacts);
        if (event.event === "agent_end") {
          this.runs.delete(runId);
          this.pendingEnds.push([run, event.data.result, event.timestamp]);
        } else if (event.event === "checkpoint" && event.data.status === "awaiting_approval") {
          this.pendingStatuses.push([run, "awaiting_approval"]);
        } else if (event.event === "agent_start" && event.data.resumed) {
          this.pendingStatuses.push([run, "running"]);
        }
      }
      for (const run of this.runs.values()) {
        this.recordGap(run, this.pendingArtifacts);
        run.compact();
      }
      for (const [run] of this.pendingEnds) run.compact();
    } catch (error) {
      this.fail(error);
    }
  }

  /** The background writer: encodes what is queued, writes it, seals, stores artifacts, closes ended runs. */
  private drain(): void {
    this.drainScheduled = false;
    this.lastDrainAt = performance.now();
    this.encodeQueued();
    if (this.failure) return;
    const ended = this.pendingEnds;
    const artifacts = this.pendingArtifacts;
    const statuses = this.pendingStatuses;
    this.pendingStatuses = [];
    this.pendingEnds = [];
    this.pendingArtifacts = [];
    try {
      const now = Date.now();
      for (const run of this.runs.values()) run.flush(now);
      // A run that ends before any of it was written is written whole when it closes.
      for (const [run] of ended) if (run.onDisk) run.flush(now);
      for (const [run, status] of statuses) run.markStatus(status);
      this.storeArtifacts(artifacts);
      for (const [run, result, ts] of ended) this.closeRun(run, result.status, ts, result);
    } catch (error) {
      this.fail(error);
    }
  }

  private bufferedBytes(): number {
    let total = 0;
    for (const run of this.runs.values()) total += run.bufferedChars;
    return total;
  }

  private openRun(start: AnyHookContext & { event: "agent_start" }): RunRecording {
    const runDir = runDirOf(this.options.dir, start.data.runId);
    const previous = start.data.resumed ? RunWriter.readManifest(runDir) : undefined;
    const writer = new RunWriter(runDir, { maxBytes: this.options.segmentMaxBytes, maxAgeMs: this.options.segmentMaxAgeMs });
    const run = new RunRecording(writer, start, previous, this.options, this.sanitizer);
    this.runs.set(start.data.runId, run);
    this.lastRunId = start.data.runId;
    return run;
  }

  private recordGap(run: RunRecording, artifacts: PendingArtifact[]): void {
    const gap = this.queue.takeGap(run.manifest.runId);
    if (gap) run.recordOwn("recorder.dropped", gap.toTs, { ...gap }, artifacts);
  }

  private closeRun(run: RunRecording, status: RunResult["status"] | "incomplete", endedAt: number, result?: RunResult): void {
    const runId = run.manifest.runId;
    this.runs.delete(runId);
    if (this.failure) return;
    const error = result?.error ? { name: result.error.name, message: result.error.message, code: result.error.code } : undefined;
    let written: Promise<void>;
    if (!run.onDisk && !run.resumed) {
      // Short runs (most of them) end before the first write: no lock, no plain file, no re-reading.
      written = run.finishWhole(status, endedAt, error);
      this.finishing.add(run.writer);
    } else {
      try {
        run.flush(Date.now());
        run.finish(status, endedAt, error);
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
        if (status === "failed" && this.options.autoExport === "on_failure") {
          this.exported.push(await exportIncident({ dir: this.options.dir, runId, reason: "on_failure" }));
        }
        await retainAfterRun(run.manifest, this.options, this.artifacts);
      })(),
    );
  }

  private storeArtifacts(artifacts: PendingArtifact[]): void {
    for (const { runId, sha256, json } of artifacts) {
      const holder = `run:${runId}`;
      const work =
        json !== undefined
          ? this.artifacts.put(json).then((stored) => this.artifacts.pin(stored.sha256, holder))
          : // Another extension's artifact may be gone already; the event still records the reference.
            this.artifacts.pin(sha256, holder).catch(() => undefined);
      this.pinning.add(work);
      this.track(work.finally(() => this.pinning.delete(work)));
    }
  }

  private track(work: Promise<unknown>): void {
    const tracked: Promise<unknown> = work.catch((error: unknown) => this.fail(error)).finally(() => this.background.delete(tracked));
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
      for (const run of this.runs.values()) {
        run.flush(Date.now());
        run.writer.closeNow();
        run.finish("incomplete", Date.now());
        run.writer.releaseLockNow();
      }
    } catch {
      // the process is exiting; nothing left to report to
    }
  }
}
