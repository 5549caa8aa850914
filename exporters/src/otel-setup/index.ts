// `@harnessx/exporters/otel-setup`: the SDK wiring for applications (NodeSDK, the OTLP/HTTP exporter,
// counted batch export). Needs the optional peers `@opentelemetry/sdk-node`, `sdk-trace-base`,
// `core`, `resources`, `otlp-exporter-base` and `otlp-transformer`.
export { setupTelemetry, type Telemetry, type TelemetryOptions } from "./setup.js";
export { CountingSpanExporter, CountingSpanProcessor, ExportCounts, countingBatchProcessor } from "./counting.js";
export {
  createOtlpExporter,
  type AbortableSpanExporter,
  type OtlpCompression,
  type OtlpExporterOptions,
  type OtlpProtocol,
} from "../otlp/otlp-exporter.js";
export { telemetryResource, type TelemetryResource } from "./resource.js";
export type { ExportPipeline, FlushOutcome } from "../otel/export-pipeline.js";
export { ExporterError } from "../errors.js";
