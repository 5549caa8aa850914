import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

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

/**
 * s3rver's continuation tokens are DES-encrypted, which OpenSSL 3 only offers through its legacy
 * provider: without it every truncated listing (more than 1,000 keys) is an InternalError. So the
 * server runs in its own Node process with that provider, printing its port when it listens.
 */
const SERVER_SCRIPT = `
const S3rver = require(process.argv[1]);
const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
server.run().then(({ port }) => process.stdout.write(JSON.stringify({ port }) + "\\n"), (error) => { console.error(error); process.exit(1); });
process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
`;

function startServerProcess(directory: string, bucket: string): Promise<{ port: number; stop(): Promise<void> }> {
  const modulePath = createRequire(import.meta.url).resolve("s3rver");
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", "-e", SERVER_SCRIPT, modulePath, directory, bucket],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let output = "";
    child.once("error", reject);
    void exited.then(() => reject(new Error(`s3rver exited before listening: ${output}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes("\n")) return;
      const { port } = JSON.parse(output) as { port: number };
      resolve({
        port,
        async stop() {
          child.kill("SIGTERM");
          await exited;
        },
      });
    });
  });
}

/** Starts s3rver (files in a temp folder) with the bucket `bucket`. */
export async function startLocalS3(bucket = "harnessx-test"): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), "hx-s3rver-"));
  const server = await startServerProcess(directory, bucket);
  const endpoint = `http://127.0.0.1:${server.port}`;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const { S3Client, ListObjectsV2Command, GetObjectCommand, PutObjectCommand } = await import("@aws-sdk/client-s3");
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  return {
    endpoint,
    bucket,
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      AWS_REGION: "us-east-1",
    },
    async keys(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
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
      await server.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
