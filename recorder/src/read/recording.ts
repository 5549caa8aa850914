import type { TraceEvent } from "@harnessx/core/tracing";
import type { BundleManifest } from "../bundle/manifest.js";
import type { RecordedEvent, RunManifest, RunSummary } from "../format/event.js";
import type { RecordedTraceEvents } from "../format/trace-events.js";
import type { SkipPayloads } from "../store/event-lines.js";
import type { RunIntegrity } from "../store/read-run.js";
import type { RecordingTables } from "../store/recording-tables.js";
import type { SpanRow } from "../store/span-rows.js";
import type { ResolvedSource } from "./source.js";

/** What `events()` gives. */
export interface RecordingEventsOptions {
  /** Put each payload stored aside (`payloadRef`) back in place, read from its artifact and parsed. Default false. */
  payloads?: boolean;
  /** Put back the messages, system prompt and tools left out of LLM_REQUEST events. Default false. */
  fullRequests?: boolean;
  /**
   * Leave inline payloads out, unread (a reader of attributes goes several times faster on a
   * run of big tool results): `true` for every event, or a test given each event without its
   * payload that says whether to leave it out. Ignored with `payloads` or `fullRequests`. Default false.
   */
  skipPayloads?: SkipPayloads;
  /** Decompress a run's next segment while this one is read, for a reader that reads to the end. Default false (a reader that stops at a page decompresses no more than it reads). */
  readAhead?: boolean;
}

/** What `traceEvents` and `eachTraceEvent` take. */
export interface TraceEventsReadOptions {
  /** Called with each recorded event as it is read (progress). */
  onEvent?: (event: RecordedEvent) => void;
}

/** What a reader had to cut or skip: torn bytes and bad lines of a store's segments (always 0 for a bundle, which is refused when damaged). */
export type RecordingIntegrity = RunIntegrity;

/** The artifacts of a recording: payloads stored aside and what other extensions stored (spilled results). */
export interface RecordingArtifacts {
  /** Ids (sha256) of every artifact the events reference, whether present or not. */
  list(): Promise<string[]>;
  /** An artifact's uncompressed bytes, verified against its id (`ArtifactNotFoundError` when absent). */
  bytes(sha256: string): Promise<Buffer>;
}

/** Options of `database()`. */
export interface RecordingDatabaseOptions {
  /** SQL may read the tables and nothing else: no files, no ATTACH, no INSTALL, no writes (see `lockToReading`). Default false. */
  readOnly?: boolean;
  /** Build the `spans` table (default true). It is the costly one on a big run; leave it out when the SQL never reads it. */
  spans?: boolean;
}

/**
 * One recorded run, read from a store or from an incident bundle: the same answers either way.
 * Returned by `openRecording`; close it (or `await using`) when done.
 */
export interface Recording extends AsyncDisposable {
  /** Where it was read from: a run of a store (`kind: "run"`) or a bundle file (`kind: "bundle"`). */
  readonly source: ResolvedSource;
  /** The run's `run.json`, checked against the versioned run manifest schema. */
  readonly run: RunManifest;
  /** The bundle's `manifest.json`, when read from a bundle. */
  readonly bundle?: BundleManifest;
  /** Totals: from run.json when the run ended, else counted from the events. */
  readonly summary: RunSummary;
  /**
   * The events in `seq` order. A run is read segment by segment (one segment in memory at a
   * time: sealed ones verified, a torn last line cut, lines that are not events skipped and
   * counted in `integrity()`); a bundle's events were verified when it was opened.
   */
  events(options?: RecordingEventsOptions): AsyncIterable<RecordedEvent>;
  /** Every event, in an array (`events()` collected). */
  readEvents(options?: RecordingEventsOptions): Promise<RecordedEvent[]>;
  /** The run's spans as every backend shows them (core's one span mapping): the rows of the `spans` table. */
  spans(): Promise<SpanRow[]>;
  /**
   * The hook events the span mapping and the converters read (`traceEventsOf`): payloads put
   * back, requests whole, with the run's span identity. Feed them to `toOtlpJsonLines`,
   * `toChromeTrace`, `mapSpans` or the push functions.
   */
  traceEvents(options?: TraceEventsReadOptions): Promise<RecordedTraceEvents>;
  /**
   * The same hook events one at a time, as they are read: for a long run, feed them to core's
   * `SpanStream` and hold only the spans, never every event with its payload.
   */
  eachTraceEvent(options?: TraceEventsReadOptions): AsyncIterable<TraceEvent>;
  /** An event's payload: inline, or its artifact read and parsed (text that is not JSON comes back as a string). */
  payloadOf(event: RecordedEvent): Promise<unknown>;
  /** The artifacts the events reference, read from the store or from the bundle. */
  readonly artifacts: RecordingArtifacts;
  /** Torn bytes and lines skipped while reading the run's segments (reads them once if `events()` has not yet been read to the end). */
  integrity(): Promise<RecordingIntegrity>;
  /**
   * DuckDB tables `events`, `spans` and `artifacts` (columns in recorder/README.md), plus `lines`
   * (one JSON text a line) and `typed_events`; the same SQL over a run and over its bundle gives
   * the same rows. Close them when done (`close()` closes any still open).
   */
  database(options?: RecordingDatabaseOptions): Promise<RecordingTables>;
  /**
   * The runs this run's tool calls started (subagents' runs, `agent.asTool`), each opened as a
   * `Recording`, in start order: in a store the runs whose run.json names this run as
   * `parentRunId`, in a bundle its linked runs. Close each when done.
   */
  linkedRuns(): Promise<Recording[]>;
  /** Releases what the recording holds (a bundle's members, open databases). */
  close(): Promise<void>;
}
