/** A step of `compactRuns` done: the runs chosen, a table's files written (not yet read by anyone), or the compaction committed. */
export type CompactStep = "selected" | "events" | "spans" | "artifacts" | "committed";

/** Options of `compactRuns`. */
export interface CompactRunsOptions {
  /** Most runs one compaction takes, newest first (default 10,000): the rest wait for the next. */
  maxRuns?: number;
  /** Called as each step is done (progress; the crash tests kill the process here). */
  onStep?: (step: CompactStep) => void | Promise<void>;
}

/** A compaction that ran: how many runs and events it moved into the partitions, and the files it wrote. */
export interface PartsCompacted {
  /** Always true: the compaction ran. */
  done: true;
  /** Runs compacted. */
  runs: number;
  /** Their events. */
  events: number;
  /** The files written, one per table and start day. */
  files: string[];
}

/** A compaction that did not run: another live process holds the lock. */
export interface PartsBusy {
  /** Always false: nothing was done. */
  done: false;
  /** The process compacting. */
  busyPid: number;
}

/** What `compactRuns` did. */
export type CompactRunsResult = PartsCompacted | PartsBusy;
