import { HarnessError } from "@harnessx/core";

/**
 * Why a folder cannot be written or read as a dataset:
 * - `missing`: the dataset to read does not exist;
 * - `not_a_folder`: the path exists and is a file (or another non-folder);
 * - `not_a_dataset`: a folder without `harnessx-dataset.json` (reading), or a non-empty one (writing: it is not made a dataset);
 * - `invalid_marker`: `harnessx-dataset.json` is not JSON of the dataset format;
 * - `unsupported_version`: the dataset's version is one this reader does not know;
 * - `no_store`: the store to export has no `runs/` folder;
 * - `unknown_run`: a run asked for is not in the store;
 * - `invalid_file`: a table file the exporter would not write (a `runs` file holding more than its one run, files without the dataset's columns).
 */
export type DatasetProblem =
  | "missing"
  | "not_a_folder"
  | "not_a_dataset"
  | "invalid_marker"
  | "unsupported_version"
  | "no_store"
  | "unknown_run"
  | "invalid_file";

/** A dataset (or the store exported to one) that cannot be used; `code` is `dataset_<problem>`. */
export class DatasetError extends HarnessError {
  constructor(
    /** What is wrong (see `DatasetProblem`). */
    readonly problem: DatasetProblem,
    /** The path concerned: the dataset, the store, or the run id. */
    readonly path: string,
    message: string,
  ) {
    super(`dataset_${problem}`, message);
  }

  /** True when the thing named does not exist (rather than being unusable). */
  get notFound(): boolean {
    return this.problem === "missing" || this.problem === "no_store" || this.problem === "unknown_run";
  }
}
