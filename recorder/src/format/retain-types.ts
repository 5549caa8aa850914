/**
 * What keeps a run's events under `retain.always`: its final status (`failed`, `crashed`,
 * `cancelled`, `incomplete`) or `error`, any ERROR event during the run.
 */
export type RetainCondition = "failed" | "crashed" | "cancelled" | "incomplete" | "error";

/** Every `RetainCondition`, in the order the docs list them. */
export const RETAIN_CONDITIONS: readonly RetainCondition[] = ["failed", "crashed", "cancelled", "incomplete", "error"];

/**
 * Tail retention (`FlightRecorderExtension`'s `retain` option): every run is recorded in full
 * while it runs; when it ends, a run that matches none of these keeps only its summary row in
 * `run.json` (status, times, tokens, cost, counts, rollup) and its events are deleted.
 */
export interface RetainPolicy {
  /** Runs with any of these keep their events. Default `["failed", "crashed", "error"]`. */
  always?: readonly RetainCondition[];
  /** Runs whose wall time (start to end) exceeds this many milliseconds keep their events. */
  slowerThanMs?: number;
  /**
   * Runs whose model calls cost more than this many US dollars keep their events. A run with a
   * call without a price keeps them too: its cost is unknown, so it may be above.
   */
  costAbove?: number;
  /**
   * The fraction (0 to 1) of the other runs that keep their events, decided from the trace id by
   * OpenTelemetry's `TraceIdRatioBased` rule: a run an exporter samples at the same ratio is kept.
   */
  sample?: number;
}

/** The policy as `run.json` stores it from the run's start (`recover` applies it after a crash). */
export interface ResolvedRetainPolicy {
  /** The conditions that keep a run, defaults filled in. */
  always: RetainCondition[];
  /** See `RetainPolicy.slowerThanMs`. */
  slowerThanMs?: number;
  /** See `RetainPolicy.costAbove`. */
  costAbove?: number;
  /** See `RetainPolicy.sample`. */
  sample?: number;
}
