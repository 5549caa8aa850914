import type { RecordedEvent as ExporterEvent } from "@harnessx/exporters";
import type { RecordedEvent } from "@harnessx/recorder";

/**
 * The recorder writes `spanId: null` for point events; the exporters' reader types the field as
 * optional. The values mean the same thing; this only changes null to absent.
 */
export function forExporters(events: readonly RecordedEvent[]): ExporterEvent[] {
  return events.map(({ spanId, parentSpanId, ...rest }) => ({
    ...rest,
    ...(spanId !== null && spanId !== undefined ? { spanId } : {}),
    ...(parentSpanId !== null && parentSpanId !== undefined ? { parentSpanId } : {}),
  }));
}
