import { loadClientS3 } from "./aws-sdk.js";
import type { S3Connection } from "./s3-client.js";
import { describeTargetProblem, S3TargetError, targetProblemOf } from "./s3-errors.js";
import { keyOf, type S3Target } from "./s3-target.js";
import { DATASET_MARKER } from "../layout.js";

/**
 * Reads the dataset's marker under the prefix before any transfer, so wrong credentials, a
 * missing bucket or an unreachable endpoint give one clear `S3TargetError` instead of a failure
 * per file (a GET, unlike a HEAD, answers with S3's error code). Resolves to the marker's text,
 * or undefined when the prefix holds no dataset yet.
 */
export async function checkTarget(connection: S3Connection, target: S3Target): Promise<string | undefined> {
  const { GetObjectCommand } = await loadClientS3();
  try {
    const marker = await connection.client.send(
      new GetObjectCommand({ Bucket: target.bucket, Key: keyOf(target, DATASET_MARKER) }),
    );
    return await marker.Body?.transformToString();
  } catch (error) {
    if ((error as { name?: string }).name === "NoSuchKey") return undefined;
    const problem = targetProblemOf(error) ?? "unreachable";
    throw new S3TargetError(
      problem,
      target.url,
      describeTargetProblem(problem, target.url, connection.endpoint, error),
      { cause: error },
    );
  }
}
