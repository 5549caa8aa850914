import { S3TargetError } from "./s3-errors.js";

/** Where a dataset lives in S3-compatible storage: `s3://<bucket>/<prefix>`. */
export interface S3Target {
  /** The URL as written, normalised: `s3://bucket` or `s3://bucket/prefix` (no trailing slash). */
  readonly url: string;
  /** The bucket's name. */
  readonly bucket: string;
  /** The key prefix without a trailing slash; "" for the bucket's root. */
  readonly prefix: string;
}

/** True when `text` names S3-compatible storage rather than a local folder. */
export const isS3Url = (text: string): boolean => /^s3:\/\//i.test(text.trim());

// S3's bucket naming rules (3 to 63 characters, lower case, digits, dots, hyphens, letter or digit at both ends).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Parses `s3://bucket/prefix` (the prefix is optional). Throws `S3TargetError` (`bad_url`) for
 * another scheme, a bad bucket name, an empty path segment or `.`/`..` in the prefix.
 */
export function parseS3Target(text: string): S3Target {
  const bad = (why: string): S3TargetError =>
    new S3TargetError("bad_url", text, `not an S3 target: "${text}" ${why} (expected s3://bucket/prefix)`);
  const trimmed = text.trim();
  if (!isS3Url(trimmed)) throw bad("does not start with s3://");
  const [bucket = "", ...segments] = trimmed.slice("s3://".length).replace(/\/+$/, "").split("/");
  if (!BUCKET.test(bucket) || bucket.includes(".."))
    throw bad(`has no valid bucket name ("${bucket}": 3-63 lower-case letters, digits, dots, hyphens)`);
  if (segments.some((s) => s === "" || s === "." || s === "..")) throw bad("has an empty, . or .. path segment");
  if (segments.some((s) => /[\u0000-\u001f\\]/.test(s)))
    throw bad("has a control character or backslash in the prefix");
  const prefix = segments.join("/");
  return { url: prefix ? `s3://${bucket}/${prefix}` : `s3://${bucket}`, bucket, prefix };
}

/** The object key of a dataset-relative path (`runs/date=.../x.parquet`) under the target's prefix. */
export const keyOf = (target: S3Target, relativePath: string): string =>
  target.prefix ? `${target.prefix}/${relativePath}` : relativePath;
