import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from "@opentelemetry/api";
import { millisToHrTime } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { MappedSpan } from "@harnessx/core/tracing";

export const SCOPE = { name: "@harnessx/exporters", version: "0.1.0" } as const;

/** Whole milliseconds and the fraction apart, so nanoseconds survive past 2^53. */
function hrTime(ms: number): HrTime {
  const whole = Math.floor(ms);
  const [s, ns] = millisToHrTime(whole);
  const extra = Math.round((ms - whole) * 1e6);
  return ns + extra >= 1e9 ? [s + 1, ns + extra - 1e9] : [s, ns + extra];
}

function duration(start: HrTime, end: HrTime): HrTime {
  let s = end[0] - start[0];
  let ns = end[1] - start[1];
  if (ns < 0) {
    s -= 1;
    ns += 1e9;
  }
  return s < 0 ? [0, 0] : [s, ns];
}

/** SDK span objects for the real OTLP serializers and exporters. */
export function toReadableSpans(spans: readonly MappedSpan[], serviceName: string): ReadableSpan[] {
  const resource = resourceFromAttributes({ "service.name": serviceName });
  return spans.map((s) => {
    const startTime = hrTime(s.startMs);
    const endTime = hrTime(s.endMs);
    const context = { traceId: s.traceId, spanId: s.spanId, traceFlags: TraceFlags.SAMPLED };
    return {
      name: s.name,
      kind: s.kind === "CLIENT" ? SpanKind.CLIENT : SpanKind.INTERNAL,
      spanContext: () => context,
      ...(s.parentSpanId
        ? { parentSpanContext: { traceId: s.traceId, spanId: s.parentSpanId, traceFlags: TraceFlags.SAMPLED } }
        : {}),
      startTime,
      endTime,
      status: s.error ? { code: SpanStatusCode.ERROR, message: s.error.message } : { code: SpanStatusCode.UNSET },
      attributes: s.attributes,
      links: [],
      events: s.events.map((e) => ({ name: e.name, time: hrTime(e.time), attributes: e.attributes })),
      duration: duration(startTime, endTime),
      ended: true,
      resource,
      instrumentationScope: SCOPE,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  });
}
