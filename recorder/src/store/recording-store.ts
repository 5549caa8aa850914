import type { TraceEvent } from "@harnessx/core/tracing";
import { join } from "node:path";
import { ArtifactStore } from "@harnessx/artifacts";
import type { RecordedEvent, RunManifest } from "../format/event.js";
import { DEFAULT_STORE_DIR, runDirOf } from "../format/layout.js";
import { exportIncident, type ExportIncidentRequest, type IncidentExport } from "../bundle/export-incident.js";
import { iterateRunEvents, readRun, type ReadRunOptions } from "./read-run.js";
import { summarize } from "../format/run-summary.js";
import { parseStoredPayload } from "../format/stored-payload.js";
import { isProcessAlive, lockHolder, recover, reductionPending, type RecoverResult } from "./recover.js";
import { openSegmentTables } from "./segment-tables.js";
import type { RecordingTables } from "./recording-tables.js";
import { runListing, type RunListing } from "./run-listing.js";
import { catalogRunOf } from "../catalog/catalog-entry.js";
import { catalogFolders, newestRuns, openCatalog } from "../catalog/open-catalog.js";
import { assertEventsKept, readRunManifest, RunNotFoundError } from "./run-manifest.js";
import { openRecording } from "../read/open-recording.js";

/** Which runs `RecordingStore.listRuns` and `listRunFolders` return. */
export interface ListRunsOptions {
  /** At most this many runs (the newest that match). */
  limit?: number;
  /** Only the runs this returns true for. */
  where?: (run: RunListing) => boolean;
}

/** What a store holds, as `RecordingStore.stats` counts it. */
export interface StoreStats {
  /** Readable runs. */
  runs: number;
  /** Runs that keep their events. */
  kept: number;
  /** Runs reduced to their summary by tail retention (`retain`). */
  reduced: number;
  /** Folders under `runs/` that are not readable runs. */
  invalid: number;
}

/** The counts of `RecordingStore.stats` from a listing already made (`listRunFolders`). */
export function storeStats(folders: {
  runs: readonly Pick<RunListing, "detail">[];
  invalid: readonly unknown[];
}): StoreStats {
  const reduced = folders.runs.filter((run) => run.detail === "summary").length;
  return { runs: folders.runs.length, kept: folders.runs.length - reduced, reduced, invalid: folders.invalid.length };
}

/** A folder under `runs/` that is not a readable run: what is wrong with it. */
export interface InvalidRunFolder {
  /** The folder's name (a run id, percent-encoded when it is not a plain name). */
  name: string;
  /** Path of the folder. */
  dir: string;
  /** Why it cannot be read: no `run.json`, or what is wrong with it. */
  problem: string;
}

/**
 * Read side of a recording store (default `.harnessx`): lists runs, reads their events, opens
 * them as DuckDB tables, recovers dead runs and exports incident bundles. Safe to use while
 * recorders write: it reads only complete lines and verified sealed segments.
 */
export class RecordingStore {
  /** The store's artifacts (payloads stored aside, spilled results). */
  readonly artifacts: ArtifactStore;

  constructor(
    /** The store's root directory. Default `.harnessx`. */
    readonly root: string = DEFAULT_STORE_DIR,
  ) {
    this.artifacts = new ArtifactStore(root);
  }

  /** Where the run's folder is or would be: `<root>/runs/<runId>`, an unusual id percent-encoded. Does not check it exists. */
  runDir(runId: string): string {
    return runDirOf(this.root, runId);
  }

  /** Every readable run, newest first. Totals of unfinished runs are computed from their events. */
  async listRuns(options: ListRunsOptions = {}): Promise<RunListing[]> {
    return (await this.listRunFolders(options)).runs;
  }

  /**
   * The store's runs from its run catalog, newest first, and the folders under `runs/` that are
   * not readable runs, with why. An ended run is listed from the catalog alone; a run still open
   * (or one recorded before summaries) is read from its folder, for its lock and its events so
   * far. With `limit`, the catalog's snapshot is read only as far as the newest runs that match.
   */
  async listRunFolders(options: ListRunsOptions = {}): Promise<{
    /** The readable runs, newest first. */
    runs: RunListing[];
    /** The folders that are not readable runs. */
    invalid: InvalidRunFolder[];
    /** What the reader should be told about the catalog (folders read into it, lines skipped). */
    notes: string[];
    /** Folders under `runs/`, listed or not: 0 for a store with nothing recorded. */
    folders: number;
  }> {
    const opened = await openCatalog(this.root);
    if (!opened) return { runs: [], invalid: [], notes: [], folders: 0 };
    const { limit = Number.POSITIVE_INFINITY, where = () => true } = options;
    const runs: RunListing[] = [];
    const invalid: InvalidRunFolder[] = [];
    for (const [name, entry] of opened.view.entries)
      if (!entry.run && entry.problem !== undefined && !opened.gone.has(name))
        invalid.push({ name, dir: join(this.root, "runs", name), problem: entry.problem });
    for await (const { folder, run } of newestRuns(opened)) {
      if (runs.length >= limit) break;
      const dir = join(this.root, "runs", folder);
      let listing: RunListing;
      try {
        listing =
          run.endedAt !== null && run.summary && run.summary.events > 0
            ? runListing(run, dir, false, run.summary)
            : await this.describe(dir);
      } catch (error) {
        const problem = error instanceof RunNotFoundError ? `${dir} has no run.json` : (error as Error).message;
        invalid.push({ name: folder, dir, problem });
        continue;
      }
      if (where(listing)) runs.push(listing);
    }
    invalid.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { runs, invalid, notes: opened.notes, folders: catalogFolders(opened).length };
  }

  /** One run's listing; `RunNotFoundError` when the store has no such run, `RunInvalidError` when its run.json is unusable. */
  getRun(runId: string): Promise<RunListing> {
    return this.describe(this.runDir(runId));
  }

  /** The run's `run.json`, checked (`RunNotFoundError`, `RunInvalidError`). */
  manifest(runId: string): Promise<RunManifest> {
    return readRunManifest(this.runDir(runId));
  }

  /** Runs kept whole and runs reduced to their summary by tail retention (`retain`). */
  async stats(): Promise<StoreStats> {
    return storeStats(await this.listRunFolders());
  }

  /** A run's events in order. `fullRequests` rebuilds whole LLM requests. `RunReducedError` when retention kept only its summary. */
  async readEvents(runId: string, options: ReadRunOptions = {}): Promise<RecordedEvent[]> {
    assertEventsKept(await this.manifest(runId));
    return (await readRun(this.runDir(runId), options)).events;
  }

  /** A run's events one at a time (constant memory per segment). */
  async *iterateEvents(runId: string, options: ReadRunOptions = {}): AsyncGenerator<RecordedEvent> {
    assertEventsKept(await this.manifest(runId));
    yield* iterateRunEvents(this.runDir(runId), options);
  }

  /** The ids of the runs that kept their events (not reduced to a summary by retention), oldest first. */
  private async runsWithEvents(): Promise<string[]> {
    return (await this.listRuns())
      .filter((r) => r.detail === "full")
      .map((r) => r.runId)
      .reverse();
  }

  /** Events of every run that kept them (or of `runIds`), run after run. */
  async readAllEvents(options: ReadRunOptions & { runIds?: readonly string[] } = {}): Promise<RecordedEvent[]> {
    const ids = options.runIds ?? (await this.runsWithEvents());
    const out: RecordedEvent[] = [];
    for (const id of ids) for (const event of await this.readEvents(id, options)) out.push(event);
    return out;
  }

  /**
   * A run's hook events as the span mapping and the converters read them (`Recording.traceEvents`
   * of `openRecording`): payloads stored aside read back, with the run's span identity. Feed them
   * to `mapSpans`, `toOtlpJsonLines`, `toChromeTrace` or the push functions.
   */
  async traceEvents(runId: string): Promise<{
    /** The run's `run.json`. */
    run: RunManifest;
    /** Its hook events, in recorded order. */
    events: TraceEvent[];
  }> {
    await using recording = await openRecording({ runDir: this.runDir(runId) });
    return { run: recording.run, events: (await recording.traceEvents()).events };
  }

  /** A payload stored aside (`payloadRef`), parsed. */
  async payloadOf(event: RecordedEvent): Promise<unknown> {
    if (!event.payloadRef) return event.payload;
    return parseStoredPayload(await this.artifacts.get(event.payloadRef.sha256));
  }

  /**
   * DuckDB tables `runs`, `events`, `spans` and `artifacts` over one run, some runs, or every run
   * that kept its events (default): the tables `trace query --all` reads (`openSegmentTables`).
   * Close them when done.
   */
  async openDatabase(options: { runIds?: readonly string[]; readOnly?: boolean } = {}): Promise<RecordingTables> {
    const ids = options.runIds ?? (await this.runsWithEvents());
    for (const id of ids) assertEventsKept(await this.manifest(id));
    return openSegmentTables(
      this.root,
      ids.map((id) => this.runDir(id)),
      { readOnly: options.readOnly },
    );
  }

  /** Seals a dead run and marks it crashed (see `recover`). */
  recover(runId: string): Promise<RecoverResult> {
    return recover(this.runDir(runId));
  }

  /** Recovers every stale run (lock held by a dead process) and finishes the tail retention of runs whose process died before it. */
  async recoverStale(): Promise<RecoverResult[]> {
    const out: RecoverResult[] = [];
    for (const run of await this.listRuns())
      if (run.stale || (await reductionPending(run.dir, await readRunManifest(run.dir))))
        out.push(await recover(run.dir));
    return out;
  }

  /** Writes an incident bundle of a run of this store (see `exportIncident`); `reason` defaults to `"manual"`. */
  exportIncident(
    request: Omit<ExportIncidentRequest, "dir" | "reason"> & { reason?: string },
  ): Promise<IncidentExport> {
    return exportIncident({ ...request, dir: this.root, reason: request.reason ?? "manual" });
  }

  private async describe(runDir: string): Promise<RunListing> {
    const manifest = await readRunManifest(runDir);
    const pid = await lockHolder(runDir);
    const stale = pid !== undefined && !isProcessAlive(pid);
    const finished = manifest.status !== "running" && manifest.summary && manifest.summary.events > 0;
    const summary = finished ? manifest.summary! : summarize((await readRun(runDir)).events);
    return runListing(catalogRunOf(manifest), runDir, stale, summary);
  }
}
