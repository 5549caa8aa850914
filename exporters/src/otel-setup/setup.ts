import { context, propagation, trace, type Tracer } from "@opentelemetry/api";
import { NodeSDK } from "@opentelemetry/sdk-node";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { ExportPipeline, FlushOutcome } from "../otel/export-pipeline.js";
import { settleWithin } from "../util/time.js";
import { countingBatchProcessor, type ExportCounts } from "./counting.js";
import { createOtlpExporter, type OtlpCompression, type OtlpProtocol } from "../otlp/otlp-exporter.js";
import type { RedactionOptions } from "@harnessx/core/extension";
import { telemetryResource } from "./resource.js";

/** Options of `setupTelemetry`; every field is optional. */
export interface TelemetryOptions {
  /** `service.name`. `OTEL_SERVICE_NAME`, then `service.name` in `OTEL_RESOURCE_ATTRIBUTES`, win (operators rename without a code change). Default "harnessx". */
  serviceName?: string;
  /** Redaction of the resource attributes' text (the process's command line among them). Default: core's default policy; `false` sends them as detected. */
  redact?: RedactionOptions | false;
  /** OTLP/HTTP traces URL. Default: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`, else http://localhost:4318/v1/traces. */
  url?: string;
  /** Extra request headers. Default: `OTEL_EXPORTER_OTLP_(TRACES_)HEADERS`. */
  headers?: Record<string, string>;
  /** Time limit of one export request, retries included. Default: `OTEL_EXPORTER_OTLP_TIMEOUT`, else 10 s. */
  exportTimeoutMs?: number;
  /** OTLP body encoding. Default: `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`, else "http/json" ("grpc" is refused with a clear error). */
  protocol?: OtlpProtocol;
  /** Request body compression ("gzip" sends `Content-Encoding: gzip`). Default: `OTEL_EXPORTER_OTLP_(TRACES_)COMPRESSION`, else "none". */
  compression?: OtlpCompression;
  /** Longest time `shutdown()` waits for the last spans to leave. Default 5000 ms. */
  shutdownTimeoutMs?: number;
  /** Replaces the OTLP/HTTP exporter (another backend, or an in-memory exporter in tests). */
  exporter?: SpanExporter;
  /** BatchSpanProcessor settings; unset ones come from `OTEL_BSP_*`, then the SDK defaults. */
  batch?: {
    /** Spans the queue holds; spans ending while it is full are dropped (and counted lost). `OTEL_BSP_MAX_QUEUE_SIZE`, default 2048. */
    maxQueueSize?: number;
    /** Most spans in one export request. `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, default 512. */
    maxExportBatchSize?: number;
    /** Milliseconds between two exports of the queue. `OTEL_BSP_SCHEDULE_DELAY`, default 5000. */
    scheduledDelayMillis?: number;
    /** Milliseconds one export may take before the processor gives it up. `OTEL_BSP_EXPORT_TIMEOUT`, default 30000. */
    exportTimeoutMillis?: number;
  };
}

/** A running tracing pipeline: pass it to `OpenTelemetryExtension({ telemetry })`. */
export interface Telemetry extends ExportPipeline {
  /** A tracer of the started SDK, for spans of your own. */
  readonly tracer: Tracer;
  /** Live counts of sampled spans ended, exported and lost. */
  readonly counts: Readonly<ExportCounts>;
  /**
   * Flushes (bounded by `shutdownTimeoutMs`), stops the SDK and unregisters its
   * global providers. Never rejects. `dropped` counts spans that did not leave.
   */
  shutdown(): Promise<FlushOutcome>;
}

/**
 * Starts `@opentelemetry/sdk-node` with an OTLP/HTTP trace exporter (JSON or protobuf)
 * behind a counting BatchSpanProcessor. Honours the standard `OTEL_*`
 * variables (endpoint, headers, timeout, compression, service name, resource attributes,
 * sampler, `OTEL_BSP_*`, `OTEL_SDK_DISABLED`). Every span carries `service.name`,
 * `service.instance.id` and `host.name` (see `telemetryResource`). Traces only: no metric or log exporters.
 */
export function setupTelemetry(options: TelemetryOptions = {}): Telemetry {
  const resource = telemetryResource(options.serviceName || "harnessx", options.redact);
  const exporter =
    options.exporter ??
    createOtlpExporter({
      url: options.url,
      headers: options.headers,
      timeoutMs: options.exportTimeoutMs,
      protocol: options.protocol,
      compression: options.compression,
    });
  const processor = countingBatchProcessor(exporter, options.batch);
  const counts = processor.counts;
  const sdk = new NodeSDK({
    ...resource,
    spanProcessors: [processor],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 5000;
  let stopped: Promise<FlushOutcome> | undefined;
  return {
    tracer: trace.getTracer("@harnessx/exporters", "0.1.0"),
    counts,
    forceFlush: () => processor.forceFlush(),
    flushWithin: (timeoutMs) => processor.flushWithin(timeoutMs),
    droppedSpans: () => processor.droppedSpans(),
    shutdown() {
      stopped ??= (async () => {
        const deadline = Date.now() + shutdownTimeoutMs;
        const { flushed } = await processor.flushWithin(shutdownTimeoutMs);
        const stoppedInTime = await settleWithin(sdk.shutdown(), Math.max(0, deadline - Date.now()));
        // Nothing sent from here on can be confirmed: what is left unconfirmed is lost.
        const leftOver = processor.writeOff();
        trace.disable();
        context.disable();
        propagation.disable();
        return { flushed: flushed && stoppedInTime && leftOver === 0, dropped: counts.dropped() };
      })();
      return stopped;
    },
  };
}
