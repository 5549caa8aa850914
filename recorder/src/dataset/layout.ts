import { join } from "node:path";
import { safeRunDirName } from "../format/layout.js";

/** `format` of `harnessx-dataset.json`. */
export const DATASET_FORMAT = "harnessx-dataset";
/** Version of the dataset layout and its tables' columns (docs/datasets.md); readers refuse others. */
export const DATASET_VERSION = 1;
/** The file that makes a folder (or an S3 prefix) a dataset. */
export const DATASET_MARKER = "harnessx-dataset.json";

/** The tables a dataset holds, one Parquet file per run and table; `runs` is written last (see `exportDataset`). */
export const DATASET_TABLES = ["events", "spans", "artifacts", "runs"] as const;
/** One of the dataset's tables. */
export type DatasetTable = (typeof DATASET_TABLES)[number];

/** The contents of `harnessx-dataset.json`. */
export interface DatasetMarker {
  /** Always `"harnessx-dataset"`. */
  format: typeof DATASET_FORMAT;
  /** The layout's version, `DATASET_VERSION`. */
  version: number;
}

/** `YYYY-MM-DD`, the UTC date of a run's start: its Hive partition. */
export function partitionDate(startedAt: number): string {
  return new Date(startedAt).toISOString().slice(0, 10);
}

/** `<table>/date=YYYY-MM-DD/<runId>.parquet`, relative to the dataset (forward slashes: also an S3 key suffix). */
export function tableFileKey(table: DatasetTable, date: string, runId: string): string {
  return `${table}/date=${date}/${safeRunDirName(runId)}.parquet`;
}

/** `objects/<sha256[0:2]>/<sha256>.zst`, relative to the dataset: an artifact's bytes, one zstd frame. */
export function objectKey(sha256: string): string {
  return `objects/${sha256.slice(0, 2)}/${sha256}.zst`;
}

/** A dataset-relative key as a local path. */
export function localPathOf(dataset: string, key: string): string {
  return join(dataset, ...key.split("/"));
}
