import type { RecorderCompactOptions, ResolvedCompactOptions } from "../parts/background-parts.js";
import type { RecordedEvent } from "../format/event.js";
import { defaultStoreDir } from "@harnessx/core";
import { MAX_INLINE_PAYLOAD_BYTES } from "../format/read-limits.js";
import { resolveRetainPolicy } from "../format/retain-policy.js";
import type { ResolvedRetainPolicy, RetainPolicy } from "../format/retain-types.js";
import {
  resolveRecorderSync,
  type RecorderSyncOptions,
  type ResolvedRecorderSync,
} from "../dataset/s3/recorder-sync-options.js";

/** Options of `FlightRecorderExtension`; every field is optional. */
export interface FlightRecorderOptions {
  /** Store root. Default `HARNESSX_DIR`, else `.harnessx` in the working directory (the store result spilling uses too). */
  dir?: string;
  /** Retention: total bytes of sealed segments in the store; the oldest go first. Default unlimited. */
  maxBytes?: number;
  /** Retention: sealed segments older than this many milliseconds are deleted. Default unlimited. */
  maxAge?: number;
  /**
   * Tail retention: when a run ends, keep its events only if it matches the policy (failed,
   * slow, costly, sampled...); the others keep just their summary in `run.json`. Stored with
   * each run when it starts, so `recover` applies it after a crash. Default: every run keeps its events.
   */
  retain?: RetainPolicy;
  /**
   * Runs last on each event about to be written, after the agent's redaction policy (the
   * `redact` option of `new Agent`, which the recorder applies to every byte it writes); return
   * the event to write (edit it in place or return a copy). Append paths you blank to `event.redacted`.
   */
  customRedact?: (event: RecordedEvent) => RecordedEvent;
  /** Record message text, tool inputs and results, model replies. Default true (replay needs it). */
  captureContent?: boolean;
  /** `"on_failure"`: write an incident bundle to `<dir>/incidents/` when a run fails. Default `"off"`. */
  autoExport?: "off" | "on_failure";
  /** A segment is sealed (zstd) when its plain NDJSON reaches this size. Default 4 MiB. */
  segmentMaxBytes?: number;
  /** ...or when it has been open this long (ms). Default 60,000. */
  segmentMaxAgeMs?: number;
  /** Payloads whose JSON is larger go to the artifact store and are referenced. Default 64 KiB, at most `MAX_INLINE_PAYLOAD_BYTES` (1 MiB: every line stays readable). */
  inlinePayloadBytes?: number;
  /** Events waiting in memory; more are dropped and counted. Default 100,000. */
  queueCapacity?: number;
  /** The background writer drains at least this often (ms): the most a kill -9 can lose. Default 100. */
  flushIntervalMs?: number;
  /**
   * Upload ended runs to a dataset in S3-compatible storage in the background (`syncDataset` every
   * `everyMs`, and once more at close); failures are reported as ERROR events (source "recorder").
   * Default: no sync, and the AWS SDK is never loaded.
   */
  sync?: RecorderSyncOptions;
  /**
   * Compact ended runs into the store's Parquet partitions in the background (`compactRuns`, on a
   * worker thread): after `afterRuns` (1,000) runs ended in this process, at most once per
   * `minIntervalMs` (an hour) per store. `false`: never (`trace compact` still does).
   */
  compact?: RecorderCompactOptions | false;
}

export interface ResolvedRecorderOptions {
  dir: string;
  maxBytes: number;
  maxAge: number;
  retain: ResolvedRetainPolicy | undefined;
  customRedact: ((event: RecordedEvent) => RecordedEvent) | undefined;
  captureContent: boolean;
  autoExport: "off" | "on_failure";
  segmentMaxBytes: number;
  segmentMaxAgeMs: number;
  inlinePayloadBytes: number;
  queueCapacity: number;
  flushIntervalMs: number;
  sync: ResolvedRecorderSync | undefined;
  compact: ResolvedCompactOptions | undefined;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value > 0))
    throw new TypeError(`FlightRecorderExtension: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

function atLeastZero(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value >= 0))
    throw new TypeError(`FlightRecorderExtension: ${name} must be a number >= 0, got ${String(value)}`);
  return value;
}

function atMost(name: string, value: number, max: number): number {
  if (value > max)
    throw new TypeError(
      `FlightRecorderExtension: ${name} must be at most ${max} (a longer line is more than a reader takes), got ${value}`,
    );
  return value;
}

export function resolveOptions(options: FlightRecorderOptions = {}): ResolvedRecorderOptions {
  const customRedact = options.customRedact;
  if (customRedact !== undefined && typeof customRedact !== "function")
    throw new TypeError("FlightRecorderExtension: customRedact must be a function (event) => event");
  if (options.autoExport !== undefined && options.autoExport !== "off" && options.autoExport !== "on_failure") {
    throw new TypeError(
      `FlightRecorderExtension: autoExport must be "off" or "on_failure", got ${JSON.stringify(options.autoExport)}`,
    );
  }
  return {
    dir: options.dir ?? defaultStoreDir(),
    maxBytes: positive("maxBytes", options.maxBytes, Number.POSITIVE_INFINITY),
    maxAge: positive("maxAge", options.maxAge, Number.POSITIVE_INFINITY),
    retain: resolveRetainPolicy(options.retain),
    customRedact,
    captureContent: options.captureContent ?? true,
    autoExport: options.autoExport ?? "off",
    segmentMaxBytes: positive("segmentMaxBytes", options.segmentMaxBytes, 4 * 1024 * 1024),
    segmentMaxAgeMs: positive("segmentMaxAgeMs", options.segmentMaxAgeMs, 60_000),
    inlinePayloadBytes: atMost(
      "inlinePayloadBytes",
      positive("inlinePayloadBytes", options.inlinePayloadBytes, 64 * 1024),
      MAX_INLINE_PAYLOAD_BYTES,
    ),
    queueCapacity: positive("queueCapacity", options.queueCapacity, 100_000),
    flushIntervalMs: positive("flushIntervalMs", options.flushIntervalMs, 100),
    sync: resolveRecorderSync(options.sync),
    compact:
      options.compact === false
        ? undefined
        : {
            afterRuns: positive("compact.afterRuns", options.compact?.afterRuns, 1000),
            minIntervalMs: atLeastZero("compact.minIntervalMs", options.compact?.minIntervalMs, 3_600_000),
            maxRuns: positive("compact.maxRuns", options.compact?.maxRuns, 2000),
          },
  };
}
