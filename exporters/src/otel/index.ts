// `@harnessx/exporters/otel`: the OpenTelemetry extension for libraries and applications alike.
// Loads `@opentelemetry/api` and `@harnessx/core` only: with no SDK registered, every span is a no-op.
export { OpenTelemetryExtension, type OpenTelemetryExtensionOptions } from "./extension.js";
export type { ExportPipeline, FlushOutcome } from "./export-pipeline.js";
export { ExporterError } from "../errors.js";
