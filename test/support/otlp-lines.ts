// Reads what `trace convert --to otlp` wrote (OTLP JSON Lines: one ExportTraceServiceRequest a line).
import { readFileSync } from "node:fs";

/** One attribute as OTLP JSON carries it. */
export interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
}

/** One span of an OTLP JSON Lines file. */
export interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: OtlpAttribute[];
}

/** Every span of the file, in file order. */
export function readOtlpSpans(path: string): OtlpSpan[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .flatMap((line) =>
      (
        JSON.parse(line) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> }
      ).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)),
    );
}

/** A span's attribute value, or undefined. */
export const otlpAttr = (span: OtlpSpan, key: string): OtlpAttribute["value"] | undefined =>
  span.attributes.find((a) => a.key === key)?.value;
