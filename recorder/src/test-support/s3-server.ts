import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";

/** s3rver's built-in account: any other key is refused as S3 refuses it (InvalidAccessKeyId). */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

/** A real S3-compatible server on a loopback port, with one bucket. */
export interface LocalS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /** The environment a `trace` child or the SDK's default chain needs to reach it. */
  env: Record<string, string>;
  /** Every key of the bucket under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** An object's bytes. */
  get(key: string): Promise<Buffer>;
  /** Stores bytes with one plain PutObject (the SDK alone: no manifest, no digest check). */
  put(key: string, body: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Starts s3rver (files in a temp folder) with the bucket `bucket`. */
export async function startLocalS3(bucket = "harnessx-test"): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), "hx-s3rver-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const { S3Client, ListObjectsV2Command, GetObjectCommand, PutObjectCommand } = await import("@aws-sdk/client-s3");
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  return {
    endpoint,
    bucket,
    env: { AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey, AWS_REGION: "us-east-1" },
    async keys(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) keys.push(object.Key!);
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async get(key) {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    async put(key, body) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
