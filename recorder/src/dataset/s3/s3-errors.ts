import { HarnessError } from "@harnessx/core";

/**
 * Why an S3 dataset target cannot be used:
 * - `bad_url`: the text is not `s3://bucket[/prefix]` (or the bucket name is not a valid one);
 * - `credentials`: the storage refused the credentials (unknown key, bad secret, expired token, no credentials found);
 * - `denied`: the credentials are known but may not read or write the prefix;
 * - `no_bucket`: the bucket does not exist;
 * - `unreachable`: the endpoint could not be reached (DNS, refused connection, timeout);
 * - `no_region`: no AWS region is configured (`AWS_REGION` or a profile's `region`);
 * - `not_a_dataset`: the prefix holds objects but no `harnessx-dataset.json` of a version this reader knows.
 */
export type S3TargetProblem =
  | "bad_url"
  | "credentials"
  | "denied"
  | "no_bucket"
  | "unreachable"
  | "no_region"
  | "not_a_dataset";

/** An S3 target that cannot be used; `problem` says why (`code` is `s3_<problem>`), the message is one line for people. */
export class S3TargetError extends HarnessError {
  constructor(
    /** What is wrong (see `S3TargetProblem`). */
    readonly problem: S3TargetProblem,
    /** The target as given. */
    readonly target: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`s3_${problem}`, message, options);
  }
}

/** The fields of an SDK error this module reads (the SDK's own `S3ServiceException`, or a Node network error). */
interface SdkErrorShape {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const CREDENTIAL_CODES = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "ExpiredToken",
  "InvalidToken",
  "TokenRefreshRequired",
  "CredentialsProviderError",
  "AuthorizationHeaderMalformed",
]);
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "TimeoutError",
]);

/**
 * The problem an SDK error means for the whole target, or undefined when it concerns one object only
 * (then the sync reports that object failed and goes on).
 */
export function targetProblemOf(error: unknown): Exclude<S3TargetProblem, "bad_url" | "not_a_dataset"> | undefined {
  const e = (error ?? {}) as SdkErrorShape;
  const name = e.name ?? "";
  if (CREDENTIAL_CODES.has(name) || /could not load credentials/i.test(e.message ?? "")) return "credentials";
  if (name === "NoSuchBucket") return "no_bucket";
  if (name === "AccessDenied" || name === "AllAccessDisabled") return "denied";
  if (NETWORK_CODES.has(e.code ?? "") || NETWORK_CODES.has(name)) return "unreachable";
  if (/region is missing/i.test(e.message ?? "")) return "no_region";
  return undefined;
}

/** One line for people saying what a target-wide problem means and what to do. */
export function describeTargetProblem(
  problem: S3TargetProblem,
  target: string,
  endpoint: string | undefined,
  cause: unknown,
): string {
  const where = endpoint ? ` at ${endpoint}` : "";
  const detail = (cause as SdkErrorShape | undefined)?.message?.split("\n")[0] ?? "";
  switch (problem) {
    case "credentials":
      return `${target}: the storage${where} refused the credentials (${detail}); check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or AWS_PROFILE`;
    case "denied":
      return `${target}: access denied${where}; the credentials may not read or write this bucket and prefix`;
    case "no_bucket":
      return `${target}: the bucket does not exist${where}; create it first`;
    case "unreachable":
      return `${target}: cannot reach the storage${where} (${detail}); check AWS_ENDPOINT_URL and the network`;
    case "no_region":
      return `${target}: no AWS region configured; set AWS_REGION (any value for MinIO and the like) or a profile's region`;
    default:
      return `${target}: ${detail}`;
  }
}
