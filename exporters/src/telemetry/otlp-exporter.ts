import { OTLPTraceExporter as OTLPJsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OTLPProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import { ExporterError } from "../errors.js";

/** OTLP over HTTP: JSON or protobuf bodies. */
export type OtlpProtocol = "http/json" | "http/protobuf";

export interface OtlpExporterOptions {
  url?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Default: `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else "http/json". */
  protocol?: OtlpProtocol;
}

function protocolOf(requested: string | undefined): OtlpProtocol {
  const value = (requested || process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || process.env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/json").trim();
  if (value === "http/json" || value === "http/protobuf") return value;
  throw new ExporterError("unsupported_protocol", `OTLP protocol "${value}" is not supported here; use "http/protobuf" or "http/json" (OTEL_EXPORTER_OTLP_PROTOCOL)`);
}

/** OpenTelemetry's own OTLP/HTTP trace exporter for the protocol asked for; url, headers and time-out default to the `OTEL_EXPORTER_OTLP_*` variables. */
export function createOtlpExporter(options: OtlpExporterOptions = {}): SpanExporter {
  const config = {
    ...(options.url ? { url: options.url } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.timeoutMs ? { timeoutMillis: options.timeoutMs } : {}),
  };
  return protocolOf(options.protocol) === "http/protobuf" ? new OTLPProtoTraceExporter(config) : new OTLPJsonTraceExporter(config);
}
