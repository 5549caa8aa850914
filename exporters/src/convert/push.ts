import { mapSpans, type MapSpansOptions, type TraceEvent } from "@harnessx/core/tracing";
import { ExportResultCode } from "@opentelemetry/core";
import { createOtlpExporter } from "../otlp/otlp-exporter.js";
import type { OtlpProtocol } from "../otlp/protocol.js";
import type { PushResult } from "../push-result.js";
import { settleWithin } from "../util/time.js";
import { toReadableSpans } from "./readable.js";

/** Options of `pushToOtlp`: where to send, and how the recording becomes spans. */
export interface OtlpPushOptions extends MapSpansOptions {
  /** OTLP/HTTP traces URL (e.g. http://localhost:4318/v1/traces). Default: the `OTEL_EXPORTER_OTLP_*` variables. */
  url?: string;
  /** HTTP headers of every request, e.g. an API key; they override `OTEL_EXPORTER_OTLP_(TRACES_)HEADERS`. */
  headers?: Record<string, string>;
  /** `service.name` of the spans' resource. Default "harnessx". */
  serviceName?: string;
  /** Time limit per request, retries included. Default 10 s. */
  timeoutMs?: number;
  /** Default: `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`, else "http/json". */
  protocol?: OtlpProtocol;
}

const BATCH = 512;

/** Sends a recording's spans to an OTLP/HTTP endpoint with OpenTelemetry's own exporter (JSON or protobuf). */
export async function pushToOtlp(events: readonly TraceEvent[], options: OtlpPushOptions = {}): Promise<PushResult> {
  const spans = mapSpans(events, options);
  const readable = toReadableSpans(spans, options.serviceName ?? "harnessx");
  const exporter = createOtlpExporter({
    url: options.url,
    headers: options.headers,
    timeoutMs: options.timeoutMs ?? 10_000,
    protocol: options.protocol,
  });
  const result: PushResult = { sent: 0, failed: 0 };
  try {
    for (let i = 0; i < readable.length; i += BATCH) {
      const batch = readable.slice(i, i + BATCH);
      const code = await new Promise<ExportResultCode>((resolve) => exporter.export(batch, (r) => resolve(r.code)));
      if (code === ExportResultCode.SUCCESS) result.sent += batch.length;
      else result.failed += batch.length;
    }
  } finally {
    await settleWithin(exporter.shutdown(), 1000);
  }
  return result;
}
