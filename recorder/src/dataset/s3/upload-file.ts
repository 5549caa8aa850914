import { createReadStream } from "node:fs";
import { join } from "node:path";
import { loadClientS3, loadLibStorage } from "./aws-sdk.js";
import type { S3Connection } from "./s3-client.js";
import { keyOf, type S3Target } from "./s3-target.js";

/** Files at least this large go up in parts of this size (S3's minimum part is 5 MiB). */
export const MULTIPART_PART_BYTES = 8 * 1024 * 1024;

const contentTypeOf = (path: string): string =>
  path.endsWith(".json")
    ? "application/json"
    : path.endsWith(".zst")
      ? "application/zstd"
      : "application/vnd.apache.parquet";

/**
 * Whether the target already holds this file: an artifact object is named by its content's
 * digest, so any object at its key is it; a table file must carry the same `sha256` metadata.
 */
export async function storedRemotely(
  connection: S3Connection,
  target: S3Target,
  path: string,
  sha256: string,
): Promise<boolean> {
  const { HeadObjectCommand } = await loadClientS3();
  try {
    const head = await connection.client.send(
      new HeadObjectCommand({ Bucket: target.bucket, Key: keyOf(target, path) }),
    );
    return path.startsWith("objects/") || head.Metadata?.sha256 === sha256;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

/**
 * Uploads one dataset file under the target's prefix with its digest as metadata: one PUT for a
 * small file, a multipart upload in parts of `MULTIPART_PART_BYTES` for a large one (lib-storage's
 * `Upload` decides, and aborts the parts of a failed multipart upload). The object appears whole
 * or not at all.
 */
export async function uploadFile(
  connection: S3Connection,
  target: S3Target,
  datasetDir: string,
  path: string,
  sha256: string,
): Promise<void> {
  const { Upload } = await loadLibStorage();
  const upload = new Upload({
    client: connection.client,
    partSize: MULTIPART_PART_BYTES,
    queueSize: 2,
    leavePartsOnError: false,
    params: {
      Bucket: target.bucket,
      Key: keyOf(target, path),
      Body: createReadStream(join(datasetDir, path)),
      ContentType: contentTypeOf(path),
      Metadata: { sha256 },
    },
  });
  await upload.done();
}
