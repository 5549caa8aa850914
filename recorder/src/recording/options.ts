import type { RecordedEvent } from "../format/event.js";
import { DEFAULT_STORE_DIR } from "../format/layout.js";
import { DEFAULT_REDACTION_RULES, type RedactionPattern, type RedactionRules } from "../redact/rules.js";

/** Redaction settings: `false` turns built-in redaction off (a custom `redact` still runs). */
export interface RedactOptions {
  /** Replaces the default sensitive keys (see `DEFAULT_SENSITIVE_KEYS`). */
  keys?: readonly string[];
  /** Added to the sensitive keys instead of replacing them. */
  extraKeys?: readonly string[];
  /** Replaces the default value patterns (see `DEFAULT_PATTERNS`). */
  patterns?: readonly RedactionPattern[];
  /** Added to the value patterns instead of replacing them. */
  extraPatterns?: readonly RedactionPattern[];
  /**
   * Runs last on each event about to be written (already redacted by the rules); return the event
   * to write (edit it in place or return a copy). Append paths you blank to `event.redacted`.
   */
  custom?: (event: RecordedEvent) => RecordedEvent;
}

export interface FlightRecorderOptions {
  /** Store root. Default `.harnessx` (relative to the working directory). */
  dir?: string;
  /** Retention: total bytes of sealed segments in the store; the oldest go first. Default unlimited. */
  maxBytes?: number;
  /** Retention: sealed segments older than this many milliseconds are deleted. Default unlimited. */
  maxAge?: number;
  /** Redaction rules, `false` for none, or a function applied to every event (after the default rules). Default: the default rules. */
  redact?: RedactOptions | false | ((event: RecordedEvent) => RecordedEvent);
  /** Record message text, tool inputs and results, model replies. Default true (replay needs it). */
  captureContent?: boolean;
  /** `"on_failure"`: write an incident bundle to `<dir>/incidents/` when a run fails. Default `"off"`. */
  autoExport?: "off" | "on_failure";
  /** A segment is sealed (zstd) when its plain NDJSON reaches this size. Default 4 MiB. */
  segmentMaxBytes?: number;
  /** ...or when it has been open this long (ms). Default 60,000. */
  segmentMaxAgeMs?: number;
  /** Payloads whose JSON is larger go to the artifact store and are referenced. Default 64 KiB. */
  inlinePayloadBytes?: number;
  /** Events waiting in memory; more are dropped and counted. Default 100,000. */
  queueCapacity?: number;
  /** The background writer drains at least this often (ms): the most a kill -9 can lose. Default 100. */
  flushIntervalMs?: number;
}

export interface ResolvedRecorderOptions {
  dir: string;
  maxBytes: number;
  maxAge: number;
  rules: RedactionRules | false;
  customRedact: ((event: RecordedEvent) => RecordedEvent) | undefined;
  captureContent: boolean;
  autoExport: "off" | "on_failure";
  segmentMaxBytes: number;
  segmentMaxAgeMs: number;
  inlinePayloadBytes: number;
  queueCapacity: number;
  flushIntervalMs: number;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value > 0)) throw new TypeError(`FlightRecorderExtension: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

export function resolveOptions(options: FlightRecorderOptions = {}): ResolvedRecorderOptions {
  const redact = options.redact;
  let rules: RedactionRules | false = DEFAULT_REDACTION_RULES;
  let customRedact: ResolvedRecorderOptions["customRedact"];
  if (redact === false) rules = false;
  else if (typeof redact === "function") customRedact = redact;
  else if (redact) {
    rules = {
      keys: [...(redact.keys ?? DEFAULT_REDACTION_RULES.keys), ...(redact.extraKeys ?? [])],
      patterns: [...(redact.patterns ?? DEFAULT_REDACTION_RULES.patterns), ...(redact.extraPatterns ?? [])],
    };
    customRedact = redact.custom;
  }
  if (options.autoExport !== undefined && options.autoExport !== "off" && options.autoExport !== "on_failure") {
    throw new TypeError(`FlightRecorderExtension: autoExport must be "off" or "on_failure", got ${JSON.stringify(options.autoExport)}`);
  }
  return {
    dir: options.dir ?? DEFAULT_STORE_DIR,
    maxBytes: positive("maxBytes", options.maxBytes, Number.POSITIVE_INFINITY),
    maxAge: positive("maxAge", options.maxAge, Number.POSITIVE_INFINITY),
    rules,
    customRedact,
    captureContent: options.captureContent ?? true,
    autoExport: options.autoExport ?? "off",
    segmentMaxBytes: positive("segmentMaxBytes", options.segmentMaxBytes, 4 * 1024 * 1024),
    segmentMaxAgeMs: positive("segmentMaxAgeMs", options.segmentMaxAgeMs, 60_000),
    inlinePayloadBytes: positive("inlinePayloadBytes", options.inlinePayloadBytes, 64 * 1024),
    queueCapacity: positive("queueCapacity", options.queueCapacity, 100_000),
    flushIntervalMs: positive("flushIntervalMs", options.flushIntervalMs, 100),
  };
}
