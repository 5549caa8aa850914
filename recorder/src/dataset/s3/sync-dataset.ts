import { join } from "node:path";
import type { Redactor } from "@harnessx/core/extension";
import { exportDataset } from "../export-dataset.js";
import type { DatasetExport, SkippedRun } from "../export-types.js";
import { configuredEndpoint } from "./s3-client.js";
import type { S3ConnectionOptions } from "./s3-options.js";
import { parseS3Target, type S3Target } from "./s3-target.js";
import { manifestPathOf } from "./sync-manifest.js";
import { uploadDataset, type FileOutcome, type UploadSummary } from "./upload-dataset.js";

/** Options of `syncDataset`. */
export interface SyncDatasetOptions {
  /** The recording store (`.harnessx`). */
  storeDir: string;
  /** `s3://bucket/prefix`, or a parsed target. */
  to: string | S3Target;
  /** Endpoint, region, credentials; default the standard AWS chain (`AWS_ENDPOINT_URL`, `AWS_PROFILE`, ...). */
  connection?: S3ConnectionOptions;
  /** Only these runs; default every ended run of the store. */
  runIds?: readonly string[];
  /** The policy spilled results are redacted with (`ExportDatasetRequest.redactor`): the recorder's sync passes its agent's. */
  redactor?: Redactor;
  /** Uploads in flight at once. Default 4. */
  concurrency?: number;
  /** Called once per file as its outcome is known (progress). */
  onFile?: (outcome: FileOutcome) => void;
  /** Called once the export is done and the files to consider are known (progress totals). */
  onStart?: (files: number) => void;
}

/** What `syncDataset` did: the upload's summary, and the export before it. */
export interface DatasetSync extends UploadSummary {
  /** Runs exported to the staging dataset by this sync (the others were exported before). */
  exportedRuns: number;
  /** Runs not synced: still being recorded, waiting for tail retention, or unreadable (`exportDataset`'s reasons). */
  skippedRuns: SkippedRun[];
  /** The local staging dataset (`<store>/sync/dataset`). */
  staging: string;
  /** The manifest of what this target received (`<store>/sync/<id>.ndjson`). */
  manifest: string;
}

/** `<store>/sync/dataset`: the store's runs as a dataset, exported once and uploaded to every target. */
export const stagingDatasetOf = (storeDir: string): string => join(storeDir, "sync", "dataset");

/**
 * Syncs a store's ended runs to a dataset in S3-compatible storage: exports the runs not yet
 * exported into the store's staging dataset (`exportDataset`: runs still being recorded are
 * skipped), then uploads what the target has not received (`uploadDataset`: by digest, from the
 * manifest in `<store>/sync/`, with the SDK's retries; a file that fails is reported and tried
 * again by the next sync). Rerunning uploads nothing new; a sync killed mid-way resumes where it
 * stopped. Nothing local is ever deleted. Throws `S3TargetError` when the target cannot be used
 * (checked before the export) and `DatasetError` for a store it cannot read.
 */
export async function syncDataset(options: SyncDatasetOptions): Promise<DatasetSync> {
  const target = typeof options.to === "string" ? parseS3Target(options.to) : options.to;
  const staging = stagingDatasetOf(options.storeDir);
  const manifest = manifestPathOf(options.storeDir, target, configuredEndpoint(options.connection ?? {}));
  let exported: DatasetExport | undefined;
  const upload = await uploadDataset({
    datasetDir: staging,
    to: target,
    manifestFile: manifest,
    connection: options.connection,
    concurrency: options.concurrency,
    onFile: options.onFile,
    onStart: options.onStart,
    prepare: async () =>
      void (exported = await exportDataset({
        storeDir: options.storeDir,
        out: staging,
        runIds: options.runIds,
        redactor: options.redactor,
      })),
  });
  return {
    ...upload,
    exportedRuns: exported!.runs.filter((r) => r.written).length,
    skippedRuns: exported!.skipped,
    staging,
    manifest,
  };
}
