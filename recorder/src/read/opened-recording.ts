import type { TraceEvent } from "@harnessx/core/tracing";
import type { BundleManifest } from "../bundle/manifest.js";
import type { RecordedEvent, RunManifest, RunSummary } from "../format/event.js";
import { RequestRebuilder } from "../format/request-rebuilder.js";
import { TraceEventReader, type RecordedTraceEvents } from "../format/trace-events.js";
import type { RunIntegrity } from "../store/read-run.js";
import { countEvent, emptySummary } from "../format/run-summary.js";
import { referencedArtifacts } from "../store/references.js";
import type { RecordingTables } from "../store/recording-tables.js";
import { spanRows, type SpanRow } from "../store/span-rows.js";
import type { RecordingBacking } from "./backing.js";
import { RecordingClosedError } from "./errors.js";
import type {
  Recording,
  RecordingArtifacts,
  RecordingDatabaseOptions,
  RecordingEventsOptions,
  RecordingIntegrity,
  TraceEventsReadOptions,
} from "./recording.js";
import type { ResolvedSource } from "./source.js";
import { parseStoredPayload } from "../format/stored-payload.js";

/** `Recording` over a run or a bundle: everything past the backing is shared, so both answer alike. */
export class OpenedRecording implements Recording {
  readonly source: ResolvedSource;
  readonly run: RunManifest;
  readonly bundle?: BundleManifest;
  readonly artifacts: RecordingArtifacts;
  private backing: RecordingBacking | undefined;
  /** What the last complete read of the events had to cut or skip. */
  private found: RunIntegrity | undefined;
  private readonly databases = new Set<RecordingTables>();

  private constructor(
    backing: RecordingBacking,
    readonly summary: RunSummary,
  ) {
    this.backing = backing;
    this.source = backing.source;
    this.run = backing.run;
    if (backing.bundle) this.bundle = backing.bundle;
    this.artifacts = {
      list: async () => {
        const ids = new Set<string>();
        for await (const event of this.events()) for (const id of referencedArtifacts([event])) ids.add(id);
        return [...ids];
      },
      bytes: async (sha256) => this.live().artifactBytes(sha256),
    };
  }

  /** Opens a recording over `backing`; totals not known from the run's metadata are counted from the events (one pass). */
  static async over(backing: RecordingBacking): Promise<OpenedRecording> {
    if (backing.knownSummary) return new OpenedRecording(backing, backing.knownSummary);
    const integrity: RunIntegrity = { tornBytes: 0, badLines: 0 };
    const summary = emptySummary();
    for await (const event of backing.events(integrity)) countEvent(summary, event);
    const recording = new OpenedRecording(backing, summary);
    recording.found = integrity;
    return recording;
  }

  async linkedRuns(): Promise<Recording[]> {
    const backings = await this.live().linked();
    return Promise.all(backings.map((backing) => OpenedRecording.over(backing)));
  }

  private live(): RecordingBacking {
    if (!this.backing)
      throw new RecordingClosedError(this.source.kind === "run" ? this.source.runId : this.source.path);
    return this.backing;
  }

  async *events(options: RecordingEventsOptions = {}): AsyncGenerator<RecordedEvent> {
    const integrity: RunIntegrity = { tornBytes: 0, badLines: 0 };
    const rebuilder = options.fullRequests ? new RequestRebuilder() : undefined;
    const skipPayloads = options.payloads || options.fullRequests ? false : options.skipPayloads;
    for await (const stored of this.live().events(integrity, { skipPayloads, readAhead: options.readAhead })) {
      const event = options.payloads && stored.payloadRef ? await this.withPayload(stored) : stored;
      yield rebuilder ? rebuilder.apply(event) : event;
    }
    this.found = integrity;
  }

  async readEvents(options: RecordingEventsOptions = {}): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    for await (const event of this.events(options)) out.push(event);
    return out;
  }

  async spans(): Promise<SpanRow[]> {
    // The mapping reads summary attributes only: payloads are left behind to keep memory down.
    const events: RecordedEvent[] = [];
    for await (const { payloadRef: _ref, ...event } of this.events({ skipPayloads: true, readAhead: true }))
      events.push(event);
    return spanRows(events, new Map([[this.run.runId, this.run]]));
  }

  async traceEvents(options: TraceEventsReadOptions = {}): Promise<RecordedTraceEvents> {
    const reader = new TraceEventReader({ traceId: this.run.traceId });
    const events: TraceEvent[] = [];
    for await (const event of this.traceEventStream(reader, options)) events.push(event);
    return { events, skipped: reader.skipped };
  }

  eachTraceEvent(options: TraceEventsReadOptions = {}): AsyncIterable<TraceEvent> {
    return this.traceEventStream(new TraceEventReader({ traceId: this.run.traceId }), options);
  }

  private async *traceEventStream(
    reader: TraceEventReader,
    options: TraceEventsReadOptions,
  ): AsyncGenerator<TraceEvent> {
    for await (const event of this.events({ payloads: true, readAhead: true })) {
      options.onEvent?.(event);
      const traced = reader.read(event);
      if (traced) yield traced;
    }
  }

  async payloadOf(event: RecordedEvent): Promise<unknown> {
    if (event.payloadRef === undefined) return event.payload;
    return parseStoredPayload(await this.live().artifactBytes(event.payloadRef.sha256));
  }

  private async withPayload(event: RecordedEvent): Promise<RecordedEvent> {
    const { payloadRef: _ref, ...rest } = event;
    return { ...rest, payload: await this.payloadOf(event) };
  }

  async integrity(): Promise<RecordingIntegrity> {
    // Reading the events to their end is what finds the integrity.
    if (!this.found)
      for await (const _event of this.events()) {
      }
    return { ...this.found! };
  }

  async database(options: RecordingDatabaseOptions = {}): Promise<RecordingTables> {
    const tables = await this.live().tables(options);
    this.databases.add(tables);
    return {
      connection: tables.connection,
      query: (sql, params) => tables.query(sql, params),
      close: () => {
        if (this.databases.delete(tables)) tables.close();
      },
    };
  }

  async close(): Promise<void> {
    for (const tables of this.databases) tables.close();
    this.databases.clear();
    this.backing?.release();
    this.backing = undefined;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
