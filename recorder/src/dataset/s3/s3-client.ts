import type { S3Client } from "@aws-sdk/client-s3";

/** Static credentials, for code that has them at hand (the default chain covers everything else). */
export interface S3Credentials {
  /** The access key id (`AWS_ACCESS_KEY_ID`). */
  accessKeyId: string;
  /** The secret access key (`AWS_SECRET_ACCESS_KEY`). */
  secretAccessKey: string;
  /** The session token of temporary credentials (`AWS_SESSION_TOKEN`). */
  sessionToken?: string;
}

/** How to reach S3-compatible storage; every field is optional: the standard AWS chain fills the rest. */
export interface S3ConnectionOptions {
  /**
   * The endpoint URL (MinIO, Ceph, R2, a local server). Default: what the SDK resolves itself,
   * `AWS_ENDPOINT_URL_S3`, else `AWS_ENDPOINT_URL`, else the profile's `endpoint_url`, else AWS.
   */
  endpoint?: string;
  /** Default: `AWS_REGION`, else the profile's region; `us-east-1` when a custom endpoint is set and no region is. */
  region?: string;
  /** Default: the SDK's chain (environment, `AWS_PROFILE` and shared files, SSO, web identity, instance roles). */
  credentials?: S3Credentials;
  /** Path-style addressing (`endpoint/bucket/key`). Default true with a custom endpoint (what MinIO and the like need), else false. */
  forcePathStyle?: boolean;
  /** Attempts per request, the SDK's standard retry with exponential backoff and jitter. Default 4. */
  maxAttempts?: number;
  /** Environment read for the defaults above. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** Connecting gives up after this long (then the SDK's retries apply). */
const CONNECTION_TIMEOUT_MS = 10_000;
/** A request whose socket stays silent this long fails (then the SDK's retries apply). */
const REQUEST_TIMEOUT_MS = 120_000;

/** An S3 client and where it points (for messages). */
export interface S3Connection {
  readonly client: S3Client;
  /** The custom endpoint, when one is configured; undefined for AWS itself. */
  readonly endpoint: string | undefined;
}

/** The endpoint a user configured, read only to choose path-style addressing and to name it in messages. */
export function configuredEndpoint(options: S3ConnectionOptions): string | undefined {
  const env = options.env ?? process.env;
  return options.endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
}

/**
 * Loads the AWS SDK (on first use only: an agent that never syncs never pays for it) and makes a
 * client. Credentials, the endpoint and the region come from the SDK's own resolution; only what
 * a custom endpoint needs is defaulted here.
 */
export async function connectS3(options: S3ConnectionOptions = {}): Promise<S3Connection> {
  const env = options.env ?? process.env;
  // The SDK warns once per process on Node < 22 that future versions will need 22: noise for
  // `trace` and agent users, who cannot act on it. Its documented switch, unless set otherwise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const { S3Client } = await import("@aws-sdk/client-s3");
  const endpoint = configuredEndpoint(options);
  const regionConfigured = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const client = new S3Client({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(regionConfigured ? { region: regionConfigured } : endpoint ? { region: "us-east-1" } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    forcePathStyle: options.forcePathStyle ?? endpoint !== undefined,
    maxAttempts: options.maxAttempts ?? 4,
    // The SDK waits forever by default: an endpoint that never answers would hold a sync (and an agent's close) with it.
    requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
  });
  return { client, endpoint };
}
