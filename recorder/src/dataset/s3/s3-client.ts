import type { S3Client } from "@aws-sdk/client-s3";
import { loadClientS3 } from "./aws-sdk.js";
import type { S3ConnectionOptions } from "./s3-options.js";

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
 * Loads the AWS SDK (on first use only: an agent that never syncs never pays for it, and an app
 * that never syncs need not install it: `MissingPackageError` then) and makes a
 * client. Credentials, the endpoint and the region come from the SDK's own resolution; only what
 * a custom endpoint needs is defaulted here.
 */
export async function connectS3(options: S3ConnectionOptions = {}): Promise<S3Connection> {
  const env = options.env ?? process.env;
  // The SDK warns once per process on Node < 22 that future versions will need 22: noise for
  // `trace` and agent users, who cannot act on it. Its documented switch, unless set otherwise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const { S3Client } = await loadClientS3();
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
