// `@harnessx/exporters/convert`: recordings to OTLP JSON Lines and Chrome/Perfetto traces, and pushed to
// an OTLP/HTTP endpoint. Needs the optional peers `@opentelemetry/core`, `resources`, `otlp-transformer`
// and `otlp-exporter-base`; loads neither the OpenTelemetry SDK nor `langsmith`.
export {
  toOtlpJsonLines,
  spansToOtlpJsonLines,
  parseOtlpJson,
  type OtlpConvertOptions,
  type OtlpLinesOptions,
  type OtlpSpan,
} from "./otlp-json.js";
export { toChromeTrace, spansToChromeTrace, type ChromeTrace, type TraceEventEntry } from "./chrome-trace.js";
export { pushToOtlp, type OtlpPushOptions } from "./push.js";
export type { OtlpProtocol } from "../otlp/protocol.js";
export type { PushResult } from "../push-result.js";
export { ExporterError } from "../errors.js";
