import { join } from "node:path";
import { DATASET_MARKER } from "../layout.js";
import { datasetFiles, type LocalDatasetFile } from "./dataset-files.js";
import { connectS3, type S3Connection } from "./s3-client.js";
import type { S3ConnectionOptions } from "./s3-options.js";
import { describeTargetProblem, S3TargetError, targetProblemOf } from "./s3-errors.js";
import { parseS3Target, type S3Target } from "./s3-target.js";
import { SyncManifest } from "./sync-manifest.js";
import { checkTarget } from "./check-target.js";
import { fileDigest } from "../parquet-files.js";
import { storedRemotely, uploadFile } from "./upload-file.js";

/** One file of an upload pass, by its dataset-relative path (also its key under the prefix). */
interface FileOutcomeBase {
  /** `runs/date=2026-12-03/<runId>.parquet`, `objects/ab/<sha256>.zst`, `harnessx-dataset.json`. */
  path: string;
  /** Its size. */
  bytes: number;
}

/** What became of one file: sent, skipped (`in_manifest`: sent before; `already_stored`: the target had it, by digest), or failed. */
export type FileOutcome =
  | (FileOutcomeBase & {
      /** Sent by this pass. */
      outcome: "uploaded";
    })
  | (FileOutcomeBase & {
      /** Not sent. */
      outcome: "skipped";
      /** Why: the manifest names it, or the target holds an object with its digest. */
      reason: "in_manifest" | "already_stored";
    })
  | (FileOutcomeBase & {
      /** Not sent: the next pass tries again. */
      outcome: "failed";
      /** The error, after the SDK's retries. */
      error: string;
    });

/** A file an upload pass could not send. */
export interface FailedUpload {
  /** Its dataset-relative path. */
  path: string;
  /** The error, after the SDK's retries (its first line). */
  error: string;
}

/** The outcome of an upload pass. Local files are never deleted, whatever happens. */
export interface UploadSummary {
  /** The target, normalised (`s3://bucket/prefix`). */
  target: string;
  /** The custom endpoint, when one is configured. */
  endpoint: string | undefined;
  /** Files of the local dataset considered. */
  files: number;
  /** Files sent by this pass. */
  uploaded: number;
  /** Files not sent: already sent (the manifest) or already stored with the same digest. */
  skipped: number;
  /** Files that failed, each with its error (after the SDK's retries); the next sync tries them again. */
  failed: FailedUpload[];
  /** Bytes sent. */
  bytesUploaded: number;
  /** How long the pass took, from the target check to the last file. */
  elapsedMs: number;
  /** Set when the target itself failed mid-way (credentials, endpoint gone): the files not tried are left for the next sync. */
  stoppedBy?: S3TargetError;
}

/** Options of `uploadDataset`. */
export interface UploadDatasetOptions {
  /** A local dataset folder (the layout of docs/datasets.md). */
  datasetDir: string;
  /** `s3://bucket/prefix`, or a parsed target. */
  to: string | S3Target;
  /** The manifest of what was uploaded to this target (see `manifestPathOf`). */
  manifestFile: string;
  /** Endpoint, region, credentials; default the standard AWS chain. */
  connection?: S3ConnectionOptions;
  /** Uploads in flight at once. Default 4. */
  concurrency?: number;
  /** Called once per file as its outcome is known (progress). */
  onFile?: (outcome: FileOutcome) => void;
  /** Runs once the target is known usable, before the folder is read (`syncDataset` exports into it then). */
  prepare?: () => Promise<void>;
  /** Called once the files to consider are known (progress totals). */
  onStart?: (files: number) => void;
}

/** Runs `work` over `items`, `limit` at a time, until done or `stop()` says so. */
async function pool<T>(
  items: readonly T[],
  limit: number,
  stop: () => boolean,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stop()) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Uploads a local dataset folder to S3-compatible storage: what the manifest records as sent
 * (same size and mtime, or same digest) and what the target already holds by digest are skipped,
 * the rest is sent. The marker goes first, then artifact objects, then each run's tables with its
 * `runs` row last (not sent when another of its files failed), so a reader never sees a run
 * without its events. Throws `S3TargetError` when the target cannot be used at all.
 */
export async function uploadDataset(options: UploadDatasetOptions): Promise<UploadSummary> {
  const started = performance.now();
  const target = typeof options.to === "string" ? parseS3Target(options.to) : options.to;
  const connection = await connectS3(options.connection);
  try {
    await checkTarget(connection, target);
    await options.prepare?.();
    const manifest = await SyncManifest.open(options.manifestFile);
    const files = await datasetFiles(options.datasetDir);
    options.onStart?.(files.length);
    const summary: UploadSummary = {
      target: target.url,
      endpoint: connection.endpoint,
      files: files.length,
      uploaded: 0,
      skipped: 0,
      failed: [],
      bytesUploaded: 0,
      elapsedMs: 0,
    };
    const stopped = (): boolean => summary.stoppedBy !== undefined;
    const send = (file: LocalDatasetFile): Promise<boolean> =>
      sendFile(connection, target, options, manifest, file, summary);
    const marker = files.filter((f) => f.path === DATASET_MARKER);
    const objects = files.filter((f) => f.path.startsWith("objects/"));
    const runs = new Map<string, LocalDatasetFile[]>();
    for (const file of files)
      if (file.runId !== undefined) runs.set(file.runId, [...(runs.get(file.runId) ?? []), file]);
    const limit = Math.max(1, options.concurrency ?? 4);
    for (const file of marker) await send(file);
    await pool(objects, limit, stopped, async (file) => void (await send(file)));
    await pool([...runs.values()], limit, stopped, async (runFiles) => {
      // in upload order, `runs` row last: stop at the run's first failure
      for (const file of runFiles) if (stopped() || !(await send(file))) return;
    });
    summary.elapsedMs = performance.now() - started;
    return summary;
  } finally {
    connection.client.destroy();
  }
}

/** Sends one file unless it is known sent; true when the target now holds it. */
async function sendFile(
  connection: S3Connection,
  target: S3Target,
  options: UploadDatasetOptions,
  manifest: SyncManifest,
  file: LocalDatasetFile,
  summary: UploadSummary,
): Promise<boolean> {
  const report = (outcome: FileOutcome): void => {
    if (outcome.outcome === "uploaded") {
      summary.uploaded++;
      summary.bytesUploaded += file.bytes;
    } else if (outcome.outcome === "skipped") summary.skipped++;
    else summary.failed.push({ path: file.path, error: outcome.error });
    options.onFile?.(outcome);
  };
  const known = manifest.get(file.path);
  if (known && known.bytes === file.bytes && known.mtimeMs === file.mtimeMs) {
    report({ path: file.path, bytes: file.bytes, outcome: "skipped", reason: "in_manifest" });
    return true;
  }
  try {
    const { sha256 } = await fileDigest(join(options.datasetDir, file.path));
    const entry = { path: file.path, sha256, bytes: file.bytes, mtimeMs: file.mtimeMs };
    if (known?.sha256 === sha256 || (await storedRemotely(connection, target, file.path, sha256))) {
      await manifest.record(entry);
      report({
        path: file.path,
        bytes: file.bytes,
        outcome: "skipped",
        reason: known?.sha256 === sha256 ? "in_manifest" : "already_stored",
      });
      return true;
    }
    await uploadFile(connection, target, options.datasetDir, file.path, sha256);
    await manifest.record(entry);
    report({ path: file.path, bytes: file.bytes, outcome: "uploaded" });
    return true;
  } catch (error) {
    const problem = targetProblemOf(error);
    if (problem && !summary.stoppedBy)
      summary.stoppedBy = new S3TargetError(
        problem,
        target.url,
        describeTargetProblem(problem, target.url, connection.endpoint, error),
        { cause: error },
      );
    report({
      path: file.path,
      bytes: file.bytes,
      outcome: "failed",
      error: (error as Error)?.message?.split("\n")[0] ?? String(error),
    });
    return false;
  }
}
