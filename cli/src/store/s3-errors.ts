import { S3TargetError, type S3TargetProblem } from "@harnessx/recorder";
import { CliError, ExitCode } from "../errors.js";

/** The exit code of each S3 target problem, in the terms of the other commands (see `ExitCode`). */
const EXIT_OF: Record<S3TargetProblem, ExitCode> = {
  bad_url: ExitCode.USAGE,
  no_bucket: ExitCode.NOT_FOUND,
  not_a_dataset: ExitCode.INVALID_INPUT,
  unreachable: ExitCode.UNREACHABLE,
  credentials: ExitCode.FAILURE,
  denied: ExitCode.FAILURE,
  no_region: ExitCode.FAILURE,
};

/** An S3 target problem as the CLI reports it: its one-line message, its exit code. */
export const s3CliError = (error: S3TargetError): CliError =>
  new CliError(EXIT_OF[error.problem], error.code, error.message, { cause: error });

/** Runs `work`, turning an `S3TargetError` into the CLI's error for it. */
export async function explainingS3<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof S3TargetError ? s3CliError(error) : error;
  }
}
