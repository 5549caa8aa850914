import { HarnessError } from "@harnessx/core";

/**
 * Exit codes of `trace`. Scripts can rely on them:
 * - 0 `OK`: the command did what was asked (for `verify`, the bundle is whole; for `replay`, the run reproduced).
 * - 1 `FAILURE`: the command ran and the answer is "no" or the work failed: a SQL error, a replay that
 *   diverged, a push where something was not sent.
 * - 2 `USAGE`: the command line is wrong (unknown command or option, missing argument, unknown `--to`).
 * - 3 `NOT_FOUND`: the run, bundle or store does not exist, or a run id prefix matches several runs.
 * - 4 `INVALID_INPUT`: the input exists but is unusable: a directory that is not a store, a corrupt,
 *   truncated or tampered bundle, a member path escaping the bundle, a bad rules file.
 * - 5 `UNREACHABLE`: a push target could not be reached before its timeout, or a sync or dataset endpoint at all.
 * - 6 `UNTRUSTED`: the bundle is intact but not signed by a key you require (`verify --key`,
 *   `--trusted`): it is unsigned, or another key signed it.
 */
export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  NOT_FOUND: 3,
  INVALID_INPUT: 4,
  UNREACHABLE: 5,
  UNTRUSTED: 6,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the CLI reports as one line on stderr before exiting with `exitCode`. */
export class CliError extends HarnessError {
  readonly exitCode: ExitCode;
  constructor(exitCode: ExitCode, code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string): CliError => new CliError(ExitCode.USAGE, "usage", message);
export const notFound = (message: string): CliError => new CliError(ExitCode.NOT_FOUND, "not_found", message);
export const invalidInput = (message: string, cause?: unknown): CliError =>
  new CliError(ExitCode.INVALID_INPUT, "invalid_input", message, { cause });
export const failure = (message: string, cause?: unknown): CliError =>
  new CliError(ExitCode.FAILURE, "failure", message, { cause });

/** The longest error line the CLI prints: a message may quote hostile data (a whole event line). */
const MAX_ERROR_CHARS = 1000;

/** The first line of an error's message, cut to 1,000 characters: the CLI never prints a stack trace for expected failures. */
export function oneLine(message: string): string {
  const line = (message.split(/\r?\n/).find((l) => l.trim() !== "") ?? message).trim();
  return line.length > MAX_ERROR_CHARS
    ? `${line.slice(0, MAX_ERROR_CHARS)}... (${line.length - MAX_ERROR_CHARS} more characters)`
    : line;
}
