// Reads OTLP/HTTP protobuf bodies as a Collector does: an `ExportTraceServiceRequest` decoded by
// protobufjs (the library OpenTelemetry JS generated its protobuf code with) from a schema written
// from the OTLP specification's field numbers, independent of the SDK's own hand-written encoder.
import protobuf from "protobufjs";

const repeated = (type: string, id: number) => ({ rule: "repeated", type, id });
const field = (type: string, id: number) => ({ type, id });

/** `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest` and what it holds (links left out: skipped as unknown). */
const OTLP_TRACES = protobuf.Root.fromJSON({
  nested: {
    otlp: {
      nested: {
        ExportTraceServiceRequest: { fields: { resourceSpans: repeated("ResourceSpans", 1) } },
        ResourceSpans: {
          fields: {
            resource: field("Resource", 1),
            scopeSpans: repeated("ScopeSpans", 2),
            schemaUrl: field("string", 3),
          },
        },
        Resource: { fields: { attributes: repeated("KeyValue", 1), droppedAttributesCount: field("uint32", 2) } },
        ScopeSpans: {
          fields: {
            scope: field("InstrumentationScope", 1),
            spans: repeated("Span", 2),
            schemaUrl: field("string", 3),
          },
        },
        InstrumentationScope: {
          fields: {
            name: field("string", 1),
            version: field("string", 2),
            attributes: repeated("KeyValue", 3),
            droppedAttributesCount: field("uint32", 4),
          },
        },
        Span: {
          fields: {
            traceId: field("bytes", 1),
            spanId: field("bytes", 2),
            traceState: field("string", 3),
            parentSpanId: field("bytes", 4),
            name: field("string", 5),
            kind: field("int32", 6),
            startTimeUnixNano: field("fixed64", 7),
            endTimeUnixNano: field("fixed64", 8),
            attributes: repeated("KeyValue", 9),
            droppedAttributesCount: field("uint32", 10),
            events: repeated("Event", 11),
            droppedEventsCount: field("uint32", 12),
            droppedLinksCount: field("uint32", 14),
            status: field("Status", 15),
            flags: field("fixed32", 16),
          },
        },
        Event: {
          fields: {
            timeUnixNano: field("fixed64", 1),
            name: field("string", 2),
            attributes: repeated("KeyValue", 3),
            droppedAttributesCount: field("uint32", 4),
          },
        },
        Status: { fields: { message: field("string", 2), code: field("int32", 3) } },
        KeyValue: { fields: { key: field("string", 1), value: field("AnyValue", 2) } },
        AnyValue: {
          oneofs: {
            value: {
              oneof: ["stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"],
            },
          },
          fields: {
            stringValue: field("string", 1),
            boolValue: field("bool", 2),
            intValue: field("int64", 3),
            doubleValue: field("double", 4),
            arrayValue: field("ArrayValue", 5),
            kvlistValue: field("KeyValueList", 6),
            bytesValue: field("bytes", 7),
          },
        },
        ArrayValue: { fields: { values: repeated("AnyValue", 1) } },
        KeyValueList: { fields: { values: repeated("KeyValue", 1) } },
      },
    },
  },
}).lookupType("otlp.ExportTraceServiceRequest");

interface DecodedSpan {
  traceId?: number[];
  spanId?: number[];
  parentSpanId?: number[];
  [field: string]: unknown;
}

const hex = (bytes: number[] | undefined) => Buffer.from(bytes ?? []).toString("hex");

/**
 * A protobuf `ExportTraceServiceRequest` as the OTLP/JSON document the same spans would be sent
 * as (hex ids, nanosecond strings, camelCase fields). Throws on a body that is not one.
 */
export function otlpProtobufToJson(body: Uint8Array): { resourceSpans: unknown[] } {
  const decoded = OTLP_TRACES.toObject(OTLP_TRACES.decode(body), { longs: String, bytes: Array }) as {
    resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: unknown[] }> }>;
  };
  for (const resourceSpans of decoded.resourceSpans ?? []) {
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      scopeSpans.spans = ((scopeSpans.spans ?? []) as DecodedSpan[]).map((span) => ({
        ...span,
        traceId: hex(span.traceId),
        spanId: hex(span.spanId),
        ...(span.parentSpanId?.length ? { parentSpanId: hex(span.parentSpanId) } : { parentSpanId: undefined }),
      }));
    }
  }
  return { resourceSpans: decoded.resourceSpans ?? [] };
}
