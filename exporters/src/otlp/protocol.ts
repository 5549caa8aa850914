import { ExporterError } from "../errors.js";

/** OTLP over HTTP: JSON or protobuf bodies. */
export type OtlpProtocol = "http/json" | "http/protobuf";

/** The requested protocol, else `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else "http/json". */
export function protocolOf(requested: string | undefined): OtlpProtocol {
  const value = (
    requested ||
    process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    "http/json"
  ).trim();
  if (value === "http/json" || value === "http/protobuf") return value;
  throw new ExporterError(
    "unsupported_protocol",
    `OTLP protocol "${value}" is not supported here; use "http/protobuf" or "http/json" (OTEL_EXPORTER_OTLP_PROTOCOL)`,
  );
}
