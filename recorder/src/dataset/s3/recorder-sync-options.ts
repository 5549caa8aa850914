import { ConfigError } from "@harnessx/core";
import type { S3ConnectionOptions } from "./s3-options.js";
import { parseS3Target, type S3Target } from "./s3-target.js";

/** `FlightRecorderExtension({ sync })`: upload the store's ended runs to a dataset in S3-compatible storage, in the background. */
export interface RecorderSyncOptions {
  /** `s3://bucket/prefix` (checked when the recorder is made: `S3TargetError`). */
  to: string;
  /** A sync pass starts this often (ms); a pass still running delays the next. Default 60,000. */
  everyMs?: number;
  /** Endpoint, region, credentials; default the standard AWS chain (`AWS_ENDPOINT_URL`, `AWS_PROFILE`, ...). */
  connection?: S3ConnectionOptions;
  /** One last pass when the agent closes, after the recorder has written everything (so its last runs go too). Default true. */
  onClose?: boolean;
  /**
   * How long closing waits for that pass (ms); past it the agent closes and an `ERROR` says so: the
   * runs not sent go with the next sync (`trace sync`). Default 15,000.
   */
  closeWithinMs?: number;
}

/** The sync options with defaults filled in. */
export interface ResolvedRecorderSync {
  to: S3Target;
  everyMs: number;
  connection: S3ConnectionOptions | undefined;
  onClose: boolean;
  closeWithinMs: number;
}

/** Validates `sync`: undefined stays undefined (no sync, and the AWS SDK is never loaded). */
export function resolveRecorderSync(sync: RecorderSyncOptions | undefined): ResolvedRecorderSync | undefined {
  if (sync === undefined) return undefined;
  const everyMs = positive("everyMs", sync.everyMs ?? 60_000);
  const closeWithinMs = positive("closeWithinMs", sync.closeWithinMs ?? 15_000);
  return {
    to: parseS3Target(String(sync.to)),
    everyMs,
    connection: sync.connection,
    onClose: sync.onClose ?? true,
    closeWithinMs,
  };
}

function positive(name: string, value: unknown): number {
  if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value))
    throw new ConfigError(
      `FlightRecorderExtension: sync.${name} must be a positive number of milliseconds, got ${String(value)}`,
    );
  return value;
}
