export { FlightRecorderExtension, RecorderWriteError } from "./recording/flight-recorder.js";
export type { FlightRecorderOptions } from "./recording/options.js";
export { EVENT_FORMAT_VERSION, type RecordedEvent, type PayloadRef, type RecorderEventKind, type RecordedRunStatus, type RunManifest, type RunSummary, type SealedSegmentInfo } from "./format/event.js";
export { RequestRebuilder, rebuildRequests } from "./format/request-rebuilder.js";
export { DEFAULT_STORE_DIR, runDirOf } from "./format/layout.js";
export { readRun, iterateRunEvents, listSegments, SegmentCorruptError, type RunRead, type ReadRunOptions, type SegmentFile } from "./store/read-run.js";
export { parseEventLines, type BadLine, type ParsedLines } from "./store/event-lines.js";
export { readRunManifest, RunNotFoundError, RunInvalidError } from "./store/run-manifest.js";
export { RUN_STATUSES, RECORDER_EVENT_KINDS, KNOWN_EVENT_KINDS } from "./format/validate.js";
export { recover, summarize, isProcessAlive, lockHolder, RunStillActiveError, type RecoverResult } from "./store/recover.js";
export { artifactRefsOf, artifactsOf, extensionArtifacts, referencedArtifacts } from "./store/references.js";
export { exportIncident, type ExportIncidentRequest, type IncidentExport } from "./bundle/export-incident.js";
export { openBundle, type OpenedBundle, type OpenBundleOptions } from "./bundle/open-bundle.js";
export { DEFAULT_BUNDLE_LIMITS, type BundleLimits } from "./bundle/inflate.js";
export { BUNDLE_FORMAT, BUNDLE_VERSION, type BundleManifest, type BundleMember } from "./bundle/manifest.js";
export {
  BundleError, BundleChecksumError, BundleTruncatedError, BundleUnsafePathError, BundleVersionError, BundleFormatError, BundleContentError, BundleTooLargeError,
} from "./bundle/errors.js";
export { RecordingStore, type RunListing, type InvalidRunFolder } from "./store/recording-store.js";
export { RecordingDatabase, type StoredSizeOf } from "./store/recording-database.js";
export { openSegmentTables, TYPED_EVENT_COLUMNS, TYPED_FROM_LINES, type RecordingTables } from "./store/segment-tables.js";
export { lockToReading } from "./store/read-only.js";
export { spanRows, type SpanRow } from "./store/span-rows.js";
export { traceEventsOf, type RecordedTraceEvents, type TraceEventsOptions } from "./format/trace-events.js";
export { ReplayProvider, type ReplayDivergence, type ReplayProviderOptions } from "./replay/replay-provider.js";
export { recordedCalls, type RecordedCall } from "./replay/recorded-calls.js";
