import { importOptional, type OptionalPackages } from "@harnessx/core/extension";

/**
 * The AWS SDK is an optional peer: only apps that sync datasets with S3 install it (about 20 MB
 * with its smithy packages). Both packages are named in the install command: a sync needs both.
 */
const NEED: OptionalPackages = {
  feature: "An S3 dataset (sync, fetch or query)",
  packages: ["@aws-sdk/client-s3", "@aws-sdk/lib-storage"],
};

/** `@aws-sdk/client-s3`, loaded on first use; `MissingPackageError` when it is not installed. */
export const loadClientS3 = () => importOptional(import.meta.url, NEED, () => import("@aws-sdk/client-s3"));

/** `@aws-sdk/lib-storage` (multipart uploads), loaded on first use; `MissingPackageError` when it is not installed. */
export const loadLibStorage = () => importOptional(import.meta.url, NEED, () => import("@aws-sdk/lib-storage"));
