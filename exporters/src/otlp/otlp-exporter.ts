import {
  CompressionAlgorithm,
  OTLPExporterBase,
  createOtlpNetworkExportDelegate,
} from "@opentelemetry/otlp-exporter-base";
import { convertLegacyHttpOptions, createOtlpHttpExporterMetrics } from "@opentelemetry/otlp-exporter-base/node-http";
import {
  JsonTraceSerializer,
  ProtobufTraceSerializer,
  TraceExporterMetricsHelper,
} from "@opentelemetry/otlp-transformer";
import type { ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { OtlpHttpTransport } from "./otlp-transport.js";
import { protocolOf, type OtlpProtocol } from "./protocol.js";
import { ExporterError } from "../errors.js";

export type { OtlpProtocol } from "./protocol.js";

/** Request body compression: "gzip" sends `Content-Encoding: gzip`, which every Collector's OTLP/HTTP receiver reads. */
export type OtlpCompression = "gzip" | "none";

/** Options of `createOtlpExporter`; whatever is left out comes from the `OTEL_EXPORTER_OTLP_*` variables. */
export interface OtlpExporterOptions {
  /** OTLP/HTTP traces URL. Default: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`, else `http://localhost:4318/v1/traces`. */
  url?: string;
  /** HTTP headers of every request, e.g. an API key; they override the same names from `OTEL_EXPORTER_OTLP_(TRACES_)HEADERS`. */
  headers?: Record<string, string>;
  /** Time limit of one export, retries included, in milliseconds. Default: `OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT`, else 10_000. */
  timeoutMs?: number;
  /** Default: `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else "http/json". */
  protocol?: OtlpProtocol;
  /** Default: `OTEL_EXPORTER_OTLP_TRACES_COMPRESSION`, else `OTEL_EXPORTER_OTLP_COMPRESSION`, else "none". */
  compression?: OtlpCompression;
}

function compressionOf(requested: OtlpCompression): CompressionAlgorithm {
  if (requested === "gzip") return CompressionAlgorithm.GZIP;
  if (requested === "none") return CompressionAlgorithm.NONE;
  throw new ExporterError(
    "unsupported_compression",
    `OTLP compression "${String(requested)}" is not supported; use "gzip" or "none" (OTEL_EXPORTER_OTLP_COMPRESSION)`,
  );
}

/** A span exporter whose requests in flight can be abandoned (see `OtlpHttpTransport`). */
export interface AbortableSpanExporter extends SpanExporter {
  /** Sends sampled `ReadableSpan`s in one OTLP request; `resultCallback` reports whether they were accepted. */
  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void;
  /** Ends every export in flight now; they report failure. Later exports are sent as usual. */
  abortInFlight(): void;
}

export function canAbandon(exporter: SpanExporter): exporter is AbortableSpanExporter {
  return typeof (exporter as Partial<AbortableSpanExporter>).abortInFlight === "function";
}

class OtlpHttpSpanExporter extends OTLPExporterBase<ReadableSpan[]> implements AbortableSpanExporter {
  constructor(
    private readonly transport: OtlpHttpTransport,
    delegate: ConstructorParameters<typeof OTLPExporterBase<ReadableSpan[]>>[0],
  ) {
    super(delegate);
  }

  abortInFlight(): void {
    this.transport.abortInFlight();
  }
}

/**
 * OTLP/HTTP trace export built from OpenTelemetry's own parts (configuration from options and
 * the `OTEL_EXPORTER_OTLP_*` variables, serializers, export delegate), with a transport that fails
 * a refused connection at once and can be abandoned; url, headers and time-out default to the variables.
 */
export function createOtlpExporter(options: OtlpExporterOptions = {}): AbortableSpanExporter {
  const json = protocolOf(options.protocol) === "http/json";
  const config = convertLegacyHttpOptions(
    {
      url: options.url,
      headers: options.headers,
      ...(options.timeoutMs ? { timeoutMillis: options.timeoutMs } : {}),
      ...(options.compression ? { compression: compressionOf(options.compression) } : {}),
    },
    "TRACES",
    "v1/traces",
    { "Content-Type": json ? "application/json" : "application/x-protobuf" },
  );
  const transport = new OtlpHttpTransport(config);
  const metrics = createOtlpHttpExporterMetrics(
    "otlp_http_span_exporter",
    TraceExporterMetricsHelper,
    config.url,
    undefined,
  );
  const delegate = createOtlpNetworkExportDelegate(
    config,
    json ? JsonTraceSerializer : ProtobufTraceSerializer,
    metrics,
    transport,
  );
  return new OtlpHttpSpanExporter(transport, delegate);
}
