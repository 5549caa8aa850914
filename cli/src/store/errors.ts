import { ArtifactCorruptError, ArtifactNotFoundError, ZstdError } from "@harnessx/artifacts";
import { MissingPackageError } from "@harnessx/core";
import { RefusedFileError } from "@harnessx/core/extension";
import {
  BundleError,
  BundleSignerError,
  BundleTruncatedError,
  DatasetError,
  EventLineTooLongError,
  ReadMemoryError,
  RecordingSourceError,
  RunInvalidError,
  RunNotFoundError,
  RunReducedError,
  RunStillActiveError,
  SegmentCorruptError,
  SigningKeyError,
  SqlLimitError,
  sqlLimitErrorOf,
} from "@harnessx/recorder";
import { CliError, ExitCode } from "../errors.js";

/**
 * Maps what the recorder, the exporters and the system throw to a CliError with a meaningful exit
 * code, keeping their message (they already name the file, member or run at fault).
 */
export function classifyError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  const error = err instanceof Error ? err : new Error(String(err));
  if (err instanceof RecordingSourceError)
    return new CliError(err.notFound ? ExitCode.NOT_FOUND : ExitCode.INVALID_INPUT, err.code, error.message, {
      cause: err,
    });
  // A run reduced by tail retention has no events left: as not found as a run without a folder.
  if (err instanceof RunNotFoundError || err instanceof RunReducedError || err instanceof ArtifactNotFoundError)
    return new CliError(ExitCode.NOT_FOUND, err.code, error.message, { cause: err });
  if (err instanceof RunInvalidError || err instanceof ArtifactCorruptError || err instanceof ZstdError)
    return new CliError(ExitCode.INVALID_INPUT, err.code, error.message, { cause: err });
  if (err instanceof BundleSignerError)
    return new CliError(ExitCode.UNTRUSTED, err.code, error.message, { cause: err });
  if (err instanceof SigningKeyError)
    return new CliError(
      err.problem === "not_found" ? ExitCode.NOT_FOUND : ExitCode.INVALID_INPUT,
      err.code,
      error.message,
      { cause: err },
    );
  if (err instanceof BundleError || err instanceof SegmentCorruptError) {
    const exit =
      err instanceof BundleError && !(err instanceof BundleTruncatedError) && /file not found/.test(err.message)
        ? ExitCode.NOT_FOUND
        : ExitCode.INVALID_INPUT;
    return new CliError(exit, (err as BundleError).code, error.message, { cause: err });
  }
  if (err instanceof DatasetError)
    return new CliError(err.notFound ? ExitCode.NOT_FOUND : ExitCode.INVALID_INPUT, err.code, error.message, {
      cause: err,
    });
  // An optional peer the command needs (the OpenTelemetry parts, langsmith, the AWS SDK) is not installed.
  if (err instanceof MissingPackageError)
    return new CliError(ExitCode.FAILURE, err.code, error.message, { cause: err });
  if (err instanceof RunStillActiveError)
    return new CliError(ExitCode.FAILURE, err.code, error.message, { cause: err });
  // Inputs a reader refuses by its limits: a FIFO, a file or line too large, DuckDB or the heap at their memory limit.
  if (
    err instanceof RefusedFileError ||
    err instanceof EventLineTooLongError ||
    err instanceof SqlLimitError ||
    err instanceof ReadMemoryError
  )
    return new CliError(ExitCode.INVALID_INPUT, err.code, error.message, { cause: err });
  const limit = sqlLimitErrorOf(err);
  if (limit) return new CliError(ExitCode.INVALID_INPUT, limit.code, limit.message, { cause: err });
  if (err instanceof RangeError && /Invalid string length|Cannot create a string longer/.test(error.message)) {
    return new CliError(
      ExitCode.INVALID_INPUT,
      "value_too_large",
      `a value read is too large to hold as text (over 512 MiB): the recording or dataset was crafted to hold it`,
      { cause: err },
    );
  }
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new CliError(ExitCode.NOT_FOUND, "not_found", error.message, { cause: err });
  if (code === "EACCES" || code === "EPERM" || code === "EISDIR" || code === "ENOTDIR")
    return new CliError(ExitCode.FAILURE, code.toLowerCase(), error.message, { cause: err });
  return new CliError(ExitCode.FAILURE, "unexpected", `unexpected error: ${error.message}`, { cause: err });
}
