import { HarnessError } from "@harnessx/core";

/**
 * Why a recording source could not be resolved:
 * - `empty`: the source text is empty;
 * - `missing_path`: a path (it has a slash, or ends in .tar) that does not exist;
 * - `no_store`: a run id was given and the store directory does not exist;
 * - `not_a_store`: the store directory exists but has no `runs/` folder;
 * - `not_a_run`: a directory that holds no `run.json`, or a path that is neither a file nor a directory (a FIFO, a device);
 * - `store_not_run`: a store directory was given where a run was expected;
 * - `no_match`: no run of the store has this id or starts with it;
 * - `ambiguous`: the id is a prefix of several runs (`matches` lists them).
 */
export type RecordingSourceProblem =
  | "empty"
  | "missing_path"
  | "no_store"
  | "not_a_store"
  | "not_a_run"
  | "store_not_run"
  | "no_match"
  | "ambiguous";

/** A source `openRecording` cannot read a recording from; `problem` says why, `code` is `recording_<problem>`. */
export class RecordingSourceError extends HarnessError {
  constructor(
    /** What is wrong with the source (see `RecordingSourceProblem`). */
    readonly problem: RecordingSourceProblem,
    /** The source as given (a path, a run id or prefix). */
    readonly source: string,
    message: string,
    /** The store searched, for `no_store`, `not_a_store`, `no_match` and `ambiguous`. */
    readonly storeDir?: string,
    /** The run ids a prefix matched (`ambiguous`). */
    readonly matches: readonly string[] = [],
  ) {
    super(`recording_${problem}`, message);
  }

  /** True for problems that mean "there is no such recording" (rather than "this is not one"). */
  get notFound(): boolean {
    return (
      this.problem === "missing_path" ||
      this.problem === "no_store" ||
      this.problem === "no_match" ||
      this.problem === "ambiguous"
    );
  }
}

/** A method of a recording was called after `close()`. */
export class RecordingClosedError extends HarnessError {
  constructor(what: string) {
    super("recording_closed", `the recording ${what} was closed; open it again to read it`);
  }
}
