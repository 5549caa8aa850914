import { loadClientS3 } from "./aws-sdk.js";
import type { S3Connection } from "./s3-client.js";

/** Every key under `prefix` sorting after `startAfter`, page by page (with size and time). */
export async function* listKeys(
  connection: S3Connection,
  bucket: string,
  prefix: string,
  startAfter: string | undefined,
): AsyncGenerator<{ key: string; bytes: number; modified: Date }> {
  const { ListObjectsV2Command } = await loadClientS3();
  let token: string | undefined;
  do {
    const page = await connection.client.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: prefix,
        ContinuationToken: token,
        ...(token ? {} : { StartAfter: startAfter }),
      }),
    );
    for (const object of page.Contents ?? [])
      yield { key: object.Key!, bytes: object.Size ?? 0, modified: object.LastModified ?? new Date(0) };
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}
