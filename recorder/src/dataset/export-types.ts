import type { Redactor } from "@harnessx/core/extension";
import type { DatasetTable } from "./layout.js";

/** What `exportDataset` exports, and where. */
export interface ExportDatasetRequest {
  /** The recording store (`.harnessx`) whose runs are exported. */
  storeDir: string;
  /** The dataset folder: created when missing; an existing one must be a dataset (or empty). */
  out: string;
  /** Only these runs (ids as in the store); default every run of the store. */
  runIds?: readonly string[];
  /**
   * The policy spilled results are redacted with (they are raw tool output): your agent's
   * (`agent.redactor`), else the default policy. A run's recorded policy is never rebuilt: its
   * patterns came from a file anyone could have written.
   */
  redactor?: Redactor;
}

/** One Parquet file of a run in the dataset. */
export interface DatasetFile {
  /** The table it holds rows of. */
  table: DatasetTable;
  /** Its path relative to the dataset, with forward slashes (`events/date=2026-12-03/<runId>.parquet`): an S3 key below the prefix. */
  key: string;
  /** Its local path. */
  path: string;
  /** Its size. */
  bytes: number;
  /** The sha256 of the file as written. */
  sha256: string;
}

/** An artifact's bytes in the dataset, `objects/<aa>/<sha256>.zst`. */
export interface DatasetObject {
  /** The sha256 of its uncompressed bytes (its id; a redacted copy's own when redaction changed a spilled result). */
  sha256: string;
  /** Its path relative to the dataset (`objects/ab/ab12....zst`). */
  key: string;
  /** Its local path. */
  path: string;
  /** Size of the zstd frame stored. */
  bytes: number;
  /** False when the dataset already held it (another run, or an earlier export, stored it). */
  written: boolean;
}

/** A run in the dataset after the export. */
export interface ExportedRun {
  /** The run's id. */
  runId: string;
  /** Its partition: the UTC date it started, `YYYY-MM-DD`. */
  date: string;
  /** `"summary"` for a run tail retention reduced: only its `runs` file is exported. */
  detail: "full" | "summary";
  /** False when the dataset already held this run exported from the same recording: nothing was rewritten. */
  written: boolean;
  /** Its Parquet files (`runs` last: it is written last, so its presence means the run is whole). */
  files: DatasetFile[];
  /** The objects its artifact index points at. */
  objects: DatasetObject[];
  /** Artifacts its events reference that the store does not hold (their index rows say `present = false`). */
  missingArtifacts: string[];
}

/**
 * A run not exported, and why: `recording` (not ended, a segment still open, or its recorder
 * process alive), `retention_pending` (ended but tail retention has not reduced it yet),
 * `invalid` (its `run.json` is unreadable: `problem` says why).
 */
export interface SkippedRun {
  /** The run's id (its folder name when its run.json is unreadable). */
  runId: string;
  /** Why it was not exported. */
  reason: "recording" | "retention_pending" | "invalid";
  /** What is wrong, for `invalid`. */
  problem?: string;
}

/** What `exportDataset` did. */
export interface DatasetExport {
  /** The dataset folder. */
  dataset: string;
  /** Every ended run asked for, exported now or already in the dataset (`written` says which). */
  runs: ExportedRun[];
  /** Runs not exported. */
  skipped: SkippedRun[];
}
