import { promises as fs } from "node:fs";
import { writeFileAtomically } from "@harnessx/artifacts";
import { readRegularFile, RefusedFileError } from "@harnessx/core/extension";
import { MAX_METADATA_FILE_BYTES } from "../format/read-limits.js";
import { DatasetError } from "./errors.js";
import { DATASET_FORMAT, DATASET_MARKER, DATASET_VERSION, localPathOf, type DatasetMarker } from "./layout.js";

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === "ENOENT";

/** Checks `harnessx-dataset.json` of a local dataset folder: `DatasetError` when the folder is not a dataset of a known version. */
export async function readDatasetMarker(dataset: string): Promise<DatasetMarker> {
  const stat = await fs.stat(dataset).catch((error: unknown) => {
    if (isMissing(error)) throw new DatasetError("missing", dataset, `the dataset ${dataset} does not exist`);
    throw error;
  });
  if (!stat.isDirectory()) throw new DatasetError("not_a_folder", dataset, `${dataset} is not a folder`);
  const bytes = await readRegularFile(localPathOf(dataset, DATASET_MARKER), {
    maxBytes: MAX_METADATA_FILE_BYTES,
  }).catch((error: unknown) => {
    if (isMissing(error))
      throw new DatasetError("not_a_dataset", dataset, `${dataset} is not a dataset: it has no ${DATASET_MARKER}`);
    if (error instanceof RefusedFileError)
      throw new DatasetError(
        "invalid_marker",
        dataset,
        `${DATASET_MARKER} of ${dataset} is ${error.problem === "too_large" ? "too large to be a marker" : "not a regular file"}`,
      );
    throw error;
  });
  return parseDatasetMarker(bytes.toString("utf8"), dataset);
}

/** The marker's contents, checked (`invalid_marker`, `unsupported_version`). */
export function parseDatasetMarker(text: string, dataset: string): DatasetMarker {
  let marker: unknown;
  try {
    marker = JSON.parse(text);
  } catch {
    throw new DatasetError("invalid_marker", dataset, `${DATASET_MARKER} of ${dataset} is not JSON`);
  }
  const { format, version } = (marker ?? {}) as Partial<DatasetMarker>;
  if (format !== DATASET_FORMAT)
    throw new DatasetError(
      "invalid_marker",
      dataset,
      `${DATASET_MARKER} of ${dataset} does not say "format": "${DATASET_FORMAT}"`,
    );
  if (version !== DATASET_VERSION)
    throw new DatasetError(
      "unsupported_version",
      dataset,
      `${dataset} is a dataset of version ${JSON.stringify(version)}; this harnessx reads version ${DATASET_VERSION}`,
    );
  return { format, version };
}

/**
 * Makes `dataset` a dataset to write into: an existing dataset is checked, a missing or empty
 * folder gets its marker; a file, or a folder holding other things, is refused (never written into).
 */
export async function prepareDataset(dataset: string): Promise<void> {
  const stat = await fs.stat(dataset).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)));
  if (stat && !stat.isDirectory())
    throw new DatasetError(
      "not_a_folder",
      dataset,
      `${dataset} is not a folder: give a dataset folder (a new or empty one, or a dataset)`,
    );
  if (stat) {
    const entries = await fs.readdir(dataset);
    if (entries.includes(DATASET_MARKER)) {
      await readDatasetMarker(dataset);
      return;
    }
    if (entries.length > 0)
      throw new DatasetError(
        "not_a_dataset",
        dataset,
        `${dataset} is not empty and not a dataset (no ${DATASET_MARKER}): give a new or empty folder, or a dataset`,
      );
  }
  await fs.mkdir(dataset, { recursive: true });
  const marker: DatasetMarker = { format: DATASET_FORMAT, version: DATASET_VERSION };
  await writeFileAtomically(localPathOf(dataset, DATASET_MARKER), `${JSON.stringify(marker)}\n`);
}
