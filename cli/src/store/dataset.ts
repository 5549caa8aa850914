import { isS3Url, openDatasetTables, type RecordingTables } from "@harnessx/recorder";
import type { CommandContext } from "../context.js";
import { usageError } from "../errors.js";
import { parseSince } from "../output/format.js";

/** How `trace query --dataset` and `trace ls --dataset` open a dataset. */
export interface DatasetReadOptions {
  /** SQL may read the tables and nothing else. */
  readOnly: boolean;
  /** Only partitions of runs started on or after this time's UTC date (milliseconds since the epoch). */
  since?: number;
}

/**
 * The tables of the dataset a `--dataset` option names: a local dataset folder, read where it is
 * (the recorder's `openDatasetTables`, partitions before `since` never opened), or `s3://bucket/prefix`
 * (remote-dataset.ts: its partitions from `since` on fetched into the local cache, then read alike).
 */
export async function openDataset(
  ctx: CommandContext,
  text: string,
  options: DatasetReadOptions,
): Promise<RecordingTables> {
  if (text.trim() === "") throw usageError("--dataset is empty: give a dataset folder");
  // A remote dataset is fetched into the local cache, then read by the same reader.
  if (isS3Url(text)) return (await import("./remote-dataset.js")).openRemoteDataset(ctx, text, options);
  return openDatasetTables(ctx.path(text), options);
}

/** A `--since` option value as milliseconds since the epoch (a usage error when it is neither a duration nor a date). */
export function sinceOption(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const since = parseSince(value);
  if (since === undefined) throw usageError(`--since must be a duration (30m, 2h, 7d) or an ISO date, got "${value}"`);
  return since;
}
