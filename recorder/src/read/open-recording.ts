import { openBundle } from "../bundle/open-bundle.js";
import type { BundleLimits } from "../bundle/inflate.js";
import { bundleBacking, runBacking } from "./backing.js";
import { OpenedRecording } from "./opened-recording.js";
import type { Recording } from "./recording.js";
import { resolveRecordingSource, type RecordingSource, type ResolveSourceOptions } from "./source.js";

/** Options of `openRecording`: where to look up run ids, and limits for bundles. */
export interface OpenRecordingOptions extends ResolveSourceOptions {
  /** What a bundle's reader takes at most (defaults in `DEFAULT_BUNDLE_LIMITS`). */
  bundleLimits?: Partial<BundleLimits>;
}

/**
 * Opens one recorded run, from a store or from an incident bundle, as one typed `Recording`:
 * the run's metadata (run.json, checked against the versioned schema), its events as an async
 * iterator, its spans, its artifacts and its DuckDB tables, with the same answers from a run
 * and from its bundle. `source` is a run directory, a bundle file, a run id (or a unique prefix)
 * in `options.storeDir`, or one of the object forms of `RecordingSource`.
 *
 * Errors are typed: `RecordingSourceError` when the source names nothing readable (with its
 * `problem`), `RunNotFoundError` / `RunInvalidError` for a run.json missing or unusable,
 * `SegmentCorruptError` for a damaged sealed segment (when read), `BundleError`s for a bundle
 * that fails verification.
 */
export async function openRecording(source: RecordingSource, options: OpenRecordingOptions = {}): Promise<Recording> {
  if (typeof source === "object" && "bundle" in source && typeof source.bundle !== "string")
    return OpenedRecording.over(bundleBacking(source.bundle));
  const resolved = await resolveRecordingSource(source, options);
  if (resolved.kind === "bundle")
    return OpenedRecording.over(
      bundleBacking(await openBundle(resolved.path, { limits: options.bundleLimits, keepEvents: false })),
    );
  return OpenedRecording.over(await runBacking(resolved));
}
