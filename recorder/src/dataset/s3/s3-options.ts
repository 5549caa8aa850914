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
