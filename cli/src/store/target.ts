import { promises as fs } from "node:fs";
import {
  checkStore,
  openRecording,
  RecordingSourceError,
  resolveRecordingSource,
  type Recording,
  type ResolvedSource,
} from "@harnessx/recorder";
import type { CommandContext } from "../context.js";
import { CliError, ExitCode, invalidInput, notFound, usageError } from "../errors.js";
import { parseRunRef, runDirOfRef } from "./run-ref.js";

/** Options of `resolveTarget` and `openTarget`. */
export interface TargetOptions {
  /** Accept a bundle file. Default true. */
  bundles?: boolean;
}

/**
 * The recorder's reason a `<run>` argument or `--store` names nothing readable, told in the
 * CLI's terms (the options to pass, the command that lists runs) with the CLI's exit codes.
 */
function explained(ctx: CommandContext, error: RecordingSourceError): CliError {
  const store = ctx.options.store;
  switch (error.problem) {
    case "empty":
      return usageError("the run argument is empty");
    case "store_not_run":
      return usageError(`${error.source} is a store; pass it as --store ${error.source} and name a run`);
    case "no_store":
      return notFound(
        `no recording store at ${store} (record a run with FlightRecorderExtension, or pass --store DIR)`,
      );
    case "not_a_store":
      return invalidInput(`${store} is not a harnessx recording store (it has no runs/ folder)`);
    case "no_match":
      return notFound(`no run matches ${JSON.stringify(error.source)} in ${store} (trace ls lists the runs)`);
    case "not_a_run":
      return invalidInput(error.message);
    default:
      return new CliError(error.notFound ? ExitCode.NOT_FOUND : ExitCode.INVALID_INPUT, error.code, error.message, {
        cause: error,
      });
  }
}

async function explaining<T>(ctx: CommandContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof RecordingSourceError ? explained(ctx, error) : error;
  }
}

const where = (ctx: CommandContext) => ({ storeDir: ctx.path(ctx.options.store), cwd: ctx.io.cwd });

/** Checks that `--store` is a store; returns its absolute path. */
export async function ensureStore(ctx: CommandContext): Promise<string> {
  const dir = ctx.path(ctx.options.store);
  await explaining(ctx, () => checkStore(dir));
  return dir;
}

/**
 * A run ref (`last`, `last-failed`, ...) replaced by the directory of the run it names; any other
 * text as given. A file or directory of the ref's name keeps its meaning: a ref never shadows a path.
 */
async function dereferenced(ctx: CommandContext, text: string): Promise<string> {
  const ref = parseRunRef(text);
  if (!ref || (await fs.stat(ctx.path(text)).catch(() => undefined))) return text;
  return runDirOfRef(await ensureStore(ctx), ref, text);
}

/**
 * What a `<run>` argument names, without reading it (the recorder's `resolveRecordingSource`):
 * an existing file is a bundle, a directory with run.json a run directory, `last` or
 * `last-<status>` the newest run (of that status), anything else a run id or a unique prefix of
 * one in `--store`.
 */
export async function resolveTarget(
  ctx: CommandContext,
  text: string,
  options: TargetOptions = {},
): Promise<ResolvedSource> {
  const source = await dereferenced(ctx, text);
  const target = await explaining(ctx, () => resolveRecordingSource(source, where(ctx)));
  if (target.kind === "bundle" && options.bundles === false)
    throw usageError(
      `${text} is a file; this command works on a recorded run (an id or a run directory), not a bundle`,
    );
  return target;
}

/** The recording a `<run>` argument names, opened through the recorder's one read model (`openRecording`): a run and its bundle read alike. */
export async function openTarget(ctx: CommandContext, text: string): Promise<Recording> {
  const source = await dereferenced(ctx, text);
  return explaining(ctx, () => openRecording(source, where(ctx)));
}

/** Where a recording was read from, as `trace summary` names it: the run directory or the bundle file. */
export const sourcePath = (recording: Recording): string =>
  recording.source.kind === "run" ? recording.source.runDir : recording.source.path;
