import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { mapSpans, type MappedSpan, type MapSpansOptions, type TraceEvent } from "@harnessx/core/tracing";
import { toReadableSpans } from "./readable.js";

/** Options of `toOtlpJsonLines`: how the recording becomes spans, and the resource they belong to. */
export interface OtlpConvertOptions extends MapSpansOptions, OtlpLinesOptions {}

/** Options of `spansToOtlpJsonLines`. */
export interface OtlpLinesOptions {
  /** `service.name` of the resource. Default "harnessx". */
  serviceName?: string;
}

/** Spans per line: a long run's trace is written in parts, as an OTel file exporter writes one batch per line. */
const SPANS_PER_LINE = 1_000;

/**
 * OTLP JSON Lines: `TracesData` objects, one per line (a run's spans on one line, or on several
 * of at most 1,000 spans for a long run), hex ids and nanosecond strings, as the OpenTelemetry
 * file exporter writes and Jaeger imports. Serialized by OpenTelemetry's own JSON trace serializer.
 */
export function toOtlpJsonLines(events: Iterable<TraceEvent>, options: OtlpConvertOptions = {}): string {
  return spansToOtlpJsonLines(mapSpans(events, { keepDetail: false, ...options }), options);
}

/**
 * `toOtlpJsonLines` of spans already mapped: by core's `SpanStream` over a recording read one
 * event at a time (`Recording.eachTraceEvent`), so a long run is converted without holding its events.
 */
export function spansToOtlpJsonLines(spans: readonly MappedSpan[], options: OtlpLinesOptions = {}): string {
  const byTrace = new Map<string, MappedSpan[]>();
  for (const s of spans) {
    const list = byTrace.get(s.traceId) ?? [];
    list.push(s);
    byTrace.set(s.traceId, list);
  }
  const decoder = new TextDecoder();
  const lines: string[] = [];
  for (const group of byTrace.values()) {
    for (let from = 0; from < group.length; from += SPANS_PER_LINE) {
      const bytes = JsonTraceSerializer.serializeRequest(
        toReadableSpans(group.slice(from, from + SPANS_PER_LINE), options.serviceName ?? "harnessx"),
      );
      if (bytes) lines.push(decoder.decode(bytes));
    }
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/** A span read back from OTLP JSON (what a backend would show). */
export interface OtlpSpan {
  /** Trace id as written in the JSON (hex). */
  traceId: string;
  /** Span id as written in the JSON (hex). */
  spanId: string;
  /** Parent span id; absent (or empty in the source) on a root span. */
  parentSpanId?: string;
  /** Span name. */
  name: string;
  /** OTLP numbering: 1 INTERNAL, 2 SERVER, 3 CLIENT. */
  kind: number;
  /** Start, in nanoseconds since the Unix epoch, as a decimal string (too large for a number). */
  startTimeUnixNano: string;
  /** End, in nanoseconds since the Unix epoch, as a decimal string. */
  endTimeUnixNano: string;
  /** Attributes with their OTLP values unwrapped (integers as numbers, arrays as arrays). */
  attributes: Record<string, unknown>;
  /** Span events in the order given. */
  events: Array<{
    /** Event name. */
    name: string;
    /** Time, in nanoseconds since the Unix epoch, as a decimal string. */
    timeUnixNano: string;
    /** Event attributes, unwrapped like the span's. */
    attributes: Record<string, unknown>;
  }>;
  /** Span status. */
  status: {
    /** OTLP numbering: 0 UNSET (also when the status is missing), 1 OK, 2 ERROR. */
    code: number;
    /** Error description; absent when empty. */
    message?: string;
  };
  /** `service.name` of the span's resource; absent when the resource has none. */
  serviceName?: string;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}

function readValue(v: AnyValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(readValue);
  return undefined;
}

/** OTLP JSON `KeyValue`s as a plain object (strings, numbers, booleans, arrays). */
export function readAttributes(list: Array<{ key: string; value: AnyValue }> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of list ?? []) out[a.key] = readValue(a.value);
  return out;
}

/** Flattens OTLP JSON (`TracesData`/`ExportTraceServiceRequest`, one per line or a single document) into spans. */
export function parseOtlpJson(text: string): OtlpSpan[] {
  const lines = text.split("\n").filter((l) => l.trim());
  // JSON Lines, or one pretty-printed document (what an HTTP receiver gets).
  const docs = lines.length > 1 && !lines[0]!.trim().endsWith("}") ? [text] : lines;
  const out: OtlpSpan[] = [];
  for (const doc of docs) {
    const data = JSON.parse(doc) as {
      resourceSpans?: Array<{
        resource?: { attributes?: Array<{ key: string; value: AnyValue }> };
        scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
      }>;
    };
    for (const rs of data.resourceSpans ?? []) {
      const serviceName = readAttributes(rs.resource?.attributes)["service.name"] as string | undefined;
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          const span = s as {
            traceId: string;
            spanId: string;
            parentSpanId?: string;
            name: string;
            kind: number;
            startTimeUnixNano: string;
            endTimeUnixNano: string;
            attributes?: Array<{ key: string; value: AnyValue }>;
            events?: Array<{
              name: string;
              timeUnixNano: string;
              attributes?: Array<{ key: string; value: AnyValue }>;
            }>;
            status?: { code?: number; message?: string };
          };
          out.push({
            traceId: span.traceId,
            spanId: span.spanId,
            ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
            name: span.name,
            kind: span.kind,
            startTimeUnixNano: String(span.startTimeUnixNano),
            endTimeUnixNano: String(span.endTimeUnixNano),
            attributes: readAttributes(span.attributes),
            events: (span.events ?? []).map((e) => ({
              name: e.name,
              timeUnixNano: String(e.timeUnixNano),
              attributes: readAttributes(e.attributes),
            })),
            status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
            ...(serviceName ? { serviceName } : {}),
          });
        }
      }
    }
  }
  return out;
}
