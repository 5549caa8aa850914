export { FlightRecorderExtension } from "./recording/flight-recorder.js";
export { RecorderWriteError } from "./recording/recorder-write-error.js";
export { RunRecordedElsewhereError } from "./recording/reopen-run.js";
export type { FlightRecorderOptions } from "./recording/options.js";
export type { FrameworkRecordingOptions } from "./frameworks/framework-recording.js";
export {
  recordAiSdk,
  AiSdkRecording,
  AI_SDK_FRAMEWORK,
  type RecordAiSdkOptions,
} from "./frameworks/ai-sdk/record-ai-sdk.js";
export {
  recordOpenAIAgents,
  OpenAIAgentsRecording,
  OPENAI_AGENTS_FRAMEWORK,
  type RecordOpenAIAgentsOptions,
} from "./frameworks/openai-agents/openai-agents-recording.js";
export { OPENAI_AGENTS_EXTENSION } from "./frameworks/openai-agents/run-replay.js";
export type {
  AgentsSdkSpan,
  AgentsSdkSpanData,
  AgentsSdkSpanError,
  AgentsSdkTrace,
  AgentsSdkTracingProcessor,
} from "./frameworks/openai-agents/sdk-types.js";
export {
  RETAIN_CONDITIONS,
  type RetainPolicy,
  type RetainCondition,
  type ResolvedRetainPolicy,
} from "./format/retain-types.js";
export {
  EVENT_FORMAT_VERSION,
  type RecordedEvent,
  type PayloadRef,
  type RecorderEventKind,
  type RecordedRunStatus,
  type RunManifest,
  type RunSummary,
  type SealedSegmentInfo,
} from "./format/event.js";
export { RequestRebuilder, rebuildRequests } from "./format/request-rebuilder.js";
export { isErrorEvent, isFailureEvent } from "./format/error-events.js";
export {
  RollupTally,
  toolCostShares,
  costOfModels,
  nanoDollars,
  recordedCostUsd,
  type ModelsCost,
  type RunRollup,
  type ModelRollup,
  type ToolRollup,
  type RollupEvent,
} from "./format/run-rollup.js";
export { LatencySketch, LATENCY_SKETCH_ACCURACY, type LatencySketchData } from "./format/latency-sketch.js";
export { DEFAULT_STORE_DIR, runDirOf } from "./format/layout.js";
export {
  readRun,
  iterateRunEvents,
  listSegments,
  SegmentCorruptError,
  type RunRead,
  type RunIntegrity,
  type ReadRunOptions,
  type IterateRunOptions,
  type SegmentFile,
} from "./store/read-run.js";
export { parseEventLines, type BadLine, type ParsedLines, type SkipPayloads } from "./store/event-lines.js";
export { readRunManifest, RunNotFoundError, RunInvalidError, RunReducedError } from "./store/run-manifest.js";
export {
  RUN_STATUSES,
  RECORDER_EVENT_KINDS,
  KNOWN_EVENT_KINDS,
  RUN_FORMAT,
  SUPPORTED_RUN_VERSIONS,
} from "./format/validate.js";
export { summarize, countEvent } from "./format/run-summary.js";
export {
  recover,
  reductionPending,
  isProcessAlive,
  lockHolder,
  RunStillActiveError,
  type RecoverResult,
  type RecoverOptions,
} from "./store/recover.js";
export { artifactRefsOf, artifactsOf, extensionArtifacts, referencedArtifacts } from "./store/references.js";
export { exportIncident, type ExportIncidentRequest, type IncidentExport } from "./bundle/export-incident.js";
export { unappliedPatterns } from "./store/recorded-policy.js";
export { openBundle, type OpenedBundle, type OpenBundleOptions } from "./bundle/open-bundle.js";
export { DEFAULT_BUNDLE_LIMITS, type BundleLimits } from "./bundle/inflate.js";
export {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  LINKED_BUNDLE_VERSION,
  type BundleManifest,
  type BundleMember,
  type BundleSignature,
  type LinkedRunEntry,
} from "./bundle/manifest.js";
export type { BundleSigner } from "./bundle/signature.js";
export {
  SigningKey,
  loadSigningKey,
  existingSigningKey,
  rotateSigningKey,
  keysDir,
  SIGNING_KEY_FILE,
  type LoadedSigningKey,
  type RotatedSigningKey,
} from "./signing/signing-key.js";
export { TrustedKeys, TRUSTED_KEYS_FILE, type TrustedKey } from "./signing/trusted-keys.js";
export { fingerprintOf, isFingerprint, readPublicKeyFile } from "./signing/public-key.js";
export { SigningKeyError, type SigningKeyProblem } from "./signing/errors.js";
export { childRunsOf, type LinkedRun } from "./store/linked-runs.js";
export {
  BundleError,
  BundleChecksumError,
  BundleTruncatedError,
  BundleUnsafePathError,
  BundleVersionError,
  BundleFormatError,
  BundleContentError,
  BundleTooLargeError,
  BundleSignatureError,
  BundleSignerError,
} from "./bundle/errors.js";
export {
  RecordingStore,
  storeStats,
  type InvalidRunFolder,
  type ListRunsOptions,
  type StoreStats,
} from "./store/recording-store.js";
export { isResumable, type RunListing } from "./store/run-listing.js";
export { SealedRunWriter, type SealedRunWriterOptions } from "./store/sealed-run-writer.js";
export { openSegmentTables } from "./store/segment-tables.js";
export { openStoreTables } from "./parts/store-tables.js";
export {
  compactRuns,
  type CompactRunsOptions,
  type CompactRunsResult,
  type CompactStep,
} from "./parts/compact-runs.js";
export type { PartsBusy, PartsCompacted } from "./parts/compact-types.js";
export type { RecorderCompactOptions } from "./parts/background-parts.js";
export type { RecordingTables } from "./store/recording-tables.js";
export {
  TABLE_COLUMNS,
  TABLE_NAMES,
  tableHelp,
  type ColumnType,
  type TableColumn,
  type TableName,
} from "./format/table-columns.js";
export { lockToReading } from "./store/read-only.js";
export { SqlLimitError, sqlLimitErrorOf, type SqlLimit } from "./store/sql-limit-error.js";
export { ReadMemoryError, readMemoryLimit, DEFAULT_READ_MEMORY_BYTES, READ_MEMORY_ENV } from "./format/read-memory.js";
export {
  MAX_EVENT_LINE_BYTES,
  MAX_INLINE_PAYLOAD_BYTES,
  MAX_EVENT_LINE_VALUES,
  MAX_ATTRIBUTE_CHARS,
  MAX_ATTRIBUTES_JSON_CHARS,
  MAX_RUN_MANIFEST_BYTES,
  MAX_BUNDLE_MANIFEST_BYTES,
  MAX_SUMS_BYTES,
  MAX_METADATA_FILE_BYTES,
  DEFAULT_SQL_MEMORY,
  MAX_SQL_SPILL,
  SQL_MEMORY_ENV,
  sqlMemoryLimit,
  EventLineTooLongError,
} from "./format/read-limits.js";
export { spanRows, type SpanRow } from "./store/span-rows.js";
export {
  traceEventsOf,
  TraceEventReader,
  type RecordedTraceEvents,
  type TraceEventsOptions,
} from "./format/trace-events.js";
export { ReplayProvider, type ReplayDivergence, type ReplayProviderOptions } from "./replay/replay-provider.js";
export { recordedCalls, type RecordedCall } from "./replay/recorded-calls.js";
export { openRecording, type OpenRecordingOptions } from "./read/open-recording.js";
export type {
  Recording,
  RecordingArtifacts,
  RecordingDatabaseOptions,
  RecordingEventsOptions,
  RecordingIntegrity,
  TraceEventsReadOptions,
} from "./read/recording.js";
export {
  resolveRecordingSource,
  checkStore,
  runFolders,
  catalogedRunFolders,
  type RecordingSource,
  type ResolvedSource,
  type ResolveSourceOptions,
  type RunFolder,
} from "./read/source.js";
export {
  compactCatalog,
  type CompactCatalogOptions,
  type CompactCatalogResult,
} from "./catalog/compact-catalog.js";
export type { CatalogBusy, CatalogCompacted } from "./catalog/compact-types.js";
export { compactInBackground, COMPACT_LOG_BYTES } from "./catalog/background-compaction.js";
export type { CatalogEntry, CatalogRun } from "./catalog/catalog-entry.js";
export { RecordingSourceError, RecordingClosedError, type RecordingSourceProblem } from "./read/errors.js";
export { followRun, type FollowRunOptions } from "./store/follow-run.js";
export { RequestComparer, type RequestDifference } from "./replay/request-comparer.js";
export { exportDataset } from "./dataset/export-dataset.js";
export type {
  ExportDatasetRequest,
  DatasetExport,
  ExportedRun,
  SkippedRun,
  DatasetFile,
  DatasetObject,
} from "./dataset/export-types.js";
export { openDatasetTables, type DatasetTableOptions } from "./dataset/dataset-tables.js";
export { readDatasetMarker, parseDatasetMarker } from "./dataset/marker.js";
export { DatasetError, type DatasetProblem } from "./dataset/errors.js";
export {
  DATASET_FORMAT,
  DATASET_VERSION,
  DATASET_MARKER,
  DATASET_TABLES,
  partitionDate,
  tableFileKey,
  objectKey,
  type DatasetTable,
  type DatasetMarker,
} from "./dataset/layout.js";
export { syncDataset, stagingDatasetOf, type SyncDatasetOptions, type DatasetSync } from "./dataset/s3/sync-dataset.js";
export {
  uploadDataset,
  type UploadDatasetOptions,
  type UploadSummary,
  type FileOutcome,
  type FailedUpload,
} from "./dataset/s3/upload-dataset.js";
export { fetchDataset, type FetchDatasetOptions, type FetchedDataset } from "./dataset/s3/fetch-dataset.js";
export { httpfsInstalled, openS3DatasetTables, type S3DatasetTableOptions } from "./dataset/s3/httpfs.js";
export { parseS3Target, isS3Url, type S3Target } from "./dataset/s3/s3-target.js";
export { S3TargetError, type S3TargetProblem } from "./dataset/s3/s3-errors.js";
export type { S3ConnectionOptions, S3Credentials } from "./dataset/s3/s3-options.js";
export { DatasetSyncError } from "./dataset/s3/background-sync.js";
export type { RecorderSyncOptions } from "./dataset/s3/recorder-sync-options.js";
